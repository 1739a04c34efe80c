import DiaryCore
import Foundation
import Testing

@Suite("Entry ids")
struct EntryIDTests {
    @Test("An id reads back from the form the diary writes, and from upper case")
    func readsBack() {
        for _ in 0..<100 {
            let id = UUID()
            #expect(UUID(diaryString: id.diaryString) == id)
            #expect(UUID(diaryString: id.uuidString) == id)
            #expect(id.diaryString == id.uuidString.lowercased())
        }
        #expect(UUID(diaryString: "d0c7a6f8-0b1e-4c55-9a57-3f2b8e1d6c90")?.diaryString == "d0c7a6f8-0b1e-4c55-9a57-3f2b8e1d6c90")
    }

    @Test("Anything else is not an id", arguments: [
        "", "d0c7a6f8", "d0c7a6f8-0b1e-4c55-9a57-3f2b8e1d6c9", "d0c7a6f8-0b1e-4c55-9a57-3f2b8e1d6c900",
        "d0c7a6f8x0b1e-4c55-9a57-3f2b8e1d6c90", "g0c7a6f8-0b1e-4c55-9a57-3f2b8e1d6c90", "d0c7a6f80b1e4c559a573f2b8e1d6c90",
        "d0c7a6f8-0b1e-4c55-9a57-3f2b8e1d6c9é",
    ])
    func refusesOthers(text: String) {
        #expect(UUID(diaryString: text) == nil)
    }
}
