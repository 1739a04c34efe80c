import Foundation
import Testing

/// Text the diary did not write itself: arguments in another encoding, and entries holding
/// terminal escape sequences (sent through the API or an import).
@Suite("Untrusted text on the command line", .serialized)
struct UntrustedTextTests {
    @Test("An argument that is not UTF-8 is refused with its position and status 64, and nothing is saved")
    func argumentNotUTF8() throws {
        let diary = try DiaryProcess()
        // \233 is 0x9B: in Latin-1 the terminal's CSI, and never valid UTF-8 alone.
        let new = try diary.shell(#""$DIARY" new t --body "$(printf 'b\23331m')""#)
        #expect(new.status == 64)
        #expect(new.output.isEmpty)
        #expect(new.error == "Error: argument 4 is not UTF-8, so nothing was done: give it as UTF-8 (for example convert it with iconv -t UTF-8).\n")
        #expect(try diary.entries().isEmpty)

        try diary.run(["new", "Kept", "--body", "as it was"])
        let id = try #require(try diary.entries().first?["id"] as? String)
        // \351 is é in Latin-1.
        let edit = try diary.shell(#""$DIARY" edit "$ID" "Caf$(printf '\351')""#, environment: ["ID": id])
        #expect(edit.status == 64)
        #expect(edit.error.contains("argument 3 is not UTF-8"), "got: \(edit.error)")
        let entry = try #require(try diary.entries().first)
        #expect(entry["title"] as? String == "Kept")
        #expect(entry["version"] as? Int == 1)
    }
}
