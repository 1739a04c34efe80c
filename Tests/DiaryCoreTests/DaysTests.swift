import DiaryCore
import Foundation
import Testing

@Suite("Words counted as a writer counts them")
struct WordCountTests {
    @Test("Words between spaces, Korean 어절 too; each Chinese character or kana; marks alone are no word",
          arguments: [
              ("", 0), ("   \n\t ", 0), ("one", 1), ("one two  three\nfour", 4), ("don't stop", 2),
              ("오늘은 비가 왔다", 3), ("今日は雨", 4), ("雨 rain", 2), ("— ... !!", 0), ("-- dash-separated --", 1),
              ("2024년 5월", 2), ("a\u{3000}b", 2), ("a\u{0}b", 1), ("café naïve", 2), ("🙂 smile", 1),
              ("ｺｰﾋｰ", 4), ("東京・大阪", 4), ("𪜀", 1),
          ])
    func counts(text: String, words: Int) {
        #expect(WordCount.of(text) == words)
    }

    @Test("An entry's words are its title's and its body's")
    func entry() {
        #expect(WordCount.of(title: "Rain", body: "it rained all day") == 5)
    }
}

@Suite("The writer's days")
struct LocalDayTests {
    @Test("A moment falls on the day its time zone's clock shows")
    func moments() {
        let seoul = TimeZone(identifier: "Asia/Seoul")!, newYork = TimeZone(identifier: "America/New_York")!
        let moment = ISODate.date(from: "2024-05-31T15:30:00Z")!.millisecondsSince1970
        #expect(LocalDay(moment: moment, in: seoul).iso == "2024-06-01")
        #expect(LocalDay(moment: moment, in: newYork).iso == "2024-05-31")
        #expect(LocalDay(moment: -1, in: TimeZone(identifier: "UTC")!).iso == "1969-12-31")
        #expect(LocalDay(moment: EntryMoment.earliest, in: TimeZone(identifier: "UTC")!).iso == "0001-01-01")
        #expect(LocalDay(moment: EntryMoment.latest, in: TimeZone(identifier: "UTC")!).iso == "9999-12-31")
    }

    @Test("Days read and written as YYYY-MM-DD; no day that is not one", arguments: [
        ("2024-02-29", true), ("2023-02-29", false), ("2024-13-01", false), ("0000-01-01", false), ("0001-01-01", true),
        ("9999-12-31", true), ("2024-1-01", false), ("2024-01-1", false), ("２０２４-01-01", false), ("+024-01-01", false), ("", false),
    ])
    func parsing(text: String, valid: Bool) {
        let day = LocalDay(text)
        #expect((day != nil) == valid)
        if let day { #expect(day.iso == text) }
    }

    @Test("Weekdays, months and years of a day")
    func parts() {
        let day = LocalDay(year: 2026, month: 11, day: 25)!
        #expect(day.weekday == 3 && day.year == 2026 && day.month == 11 && day.day == 25 && day.isoMonth == "2026-11")
        #expect(LocalDay(year: 1970, month: 1, day: 1)!.weekday == 4)
        #expect(LocalDay(year: 1969, month: 12, day: 28)!.weekday == 0)
        #expect(day.advanced(by: 7).iso == "2026-12-02")
    }
}
