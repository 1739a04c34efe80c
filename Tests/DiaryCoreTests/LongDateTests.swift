import DiaryCore
import Foundation
import Testing

@Suite("Dates in the reader's language")
struct LongDateTests {
    let sampleDay = Date(timeIntervalSince1970: 1_608_651_333)  // 2020-12-22 15:35:33 UTC
    let utc = TimeZone(identifier: "UTC")!

    @Test("LANG=ko_KR.UTF-8 gives the Korean long date")
    func korean() {
        #expect(LongDate(environment: ["LANG": "ko_KR.UTF-8"], timeZone: utc).string(from: sampleDay) == "2020년 12월 22일")
    }

    @Test("LANG=en_US.UTF-8 gives the English long date")
    func english() {
        #expect(LongDate(environment: ["LANG": "en_US.UTF-8"], timeZone: utc).string(from: sampleDay) == "December 22, 2020")
    }

    @Test("LC_ALL wins over LANG, and C falls back to English")
    func precedence() {
        #expect(LongDate(environment: ["LANG": "en_US.UTF-8", "LC_ALL": "ko_KR.UTF-8"], timeZone: utc).string(from: sampleDay) == "2020년 12월 22일")
        #expect(LongDate(environment: ["LANG": "C"], timeZone: utc).string(from: sampleDay) == "December 22, 2020")
    }
}
