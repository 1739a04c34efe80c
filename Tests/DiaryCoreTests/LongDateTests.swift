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

    @Test("Years before 1582 are counted as ISO 8601 and the web app count them, not by the Julian calendar")
    func oldDates() throws {
        let english = LongDate(environment: ["LANG": "en_US.UTF-8"], timeZone: utc)
        let korean = LongDate(environment: ["LANG": "ko_KR.UTF-8"], timeZone: utc)
        let first = try ISODate.parse("0001-01-01T00:00:00.000Z").get()
        #expect(english.string(from: first) == "January 1, 1")
        #expect(korean.string(from: first) == "1년 1월 1일")
        #expect(english.string(from: try ISODate.parse("1582-10-04T12:00:00.000Z").get()) == "October 4, 1582")
        // Days Foundation's calendar skips are written as ISO dates.
        #expect(english.string(from: try ISODate.parse("1582-10-14T23:59:59.999Z").get()) == "1582-10-14")
        #expect(english.string(from: try ISODate.parse("1582-10-15T00:00:00.000Z").get()) == "October 15, 1582")
        // In a zone ahead of UTC, the local day.
        let seoul = LongDate(locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "Asia/Seoul")!)
        #expect(seoul.string(from: try ISODate.parse("1000-06-30T20:00:00.000Z").get()) == "July 1, 1000")
    }
}
