import Foundation
import Testing

@testable import DiaryCore

/// Dates as a writer types them on the command line, in their own time zone.
@Suite("Dates as a writer types them")
struct WrittenDateTests {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    /// 2024-05-02T01:15:00+09:00: just after midnight in Seoul, still May 1st in UTC.
    let now = try! ISODate.parse("2024-05-02T01:15:00+09:00").get()

    func iso(_ text: String, in zone: TimeZone? = nil) -> String? {
        WrittenDate.parse(text, now: now, timeZone: zone ?? seoul).map(ISODate.string(from:))
    }

    @Test("Days and times are the writer's local ones; a day without a time is 9 in the morning, as in jrnl")
    func localForms() {
        #expect(iso("2024-05-01") == "2024-05-01T00:00:00.000Z")  // 09:00 in Seoul
        #expect(iso("2024-05-01 21:30") == "2024-05-01T12:30:00.000Z")
        #expect(iso("2024/5/1 9:30pm") == "2024-05-01T12:30:00.000Z")
        #expect(iso("2024-05-01 9:30 PM") == "2024-05-01T12:30:00.000Z")
        #expect(iso("2024-05-01T21:30") == "2024-05-01T12:30:00.000Z")
        #expect(iso("2024-05-01 21:30:15") == "2024-05-01T12:30:15.000Z")
        #expect(iso("today") == "2024-05-02T00:00:00.000Z")  // Seoul's today, not UTC's
        #expect(iso("Yesterday 21:30") == "2024-05-01T12:30:00.000Z")
        #expect(iso("21:30") == "2024-05-02T12:30:00.000Z")
        #expect(iso("now") == "2024-05-01T16:15:00.000Z")
        #expect(iso("2024-05-01T21:30:00+02:00") == "2024-05-01T19:30:00.000Z")  // an offset given wins
    }

    @Test("Summer time is the zone's own on that day")
    func summerTime() {
        let newYork = TimeZone(identifier: "America/New_York")!
        #expect(iso("2024-01-15 12:00", in: newYork) == "2024-01-15T17:00:00.000Z")
        #expect(iso("2024-07-15 12:00", in: newYork) == "2024-07-15T16:00:00.000Z")
    }

    @Test("Years before the Gregorian reform count as ISO counts them")
    func oldDates() {
        #expect(iso("1000-01-01 00:00", in: TimeZone(identifier: "UTC")!) == "1000-01-01T00:00:00.000Z")
    }

    @Test("What is no date, or no day an entry may have, is refused", arguments: [
        "", "Note", "yesterdayy", "2024-13-01", "2024-02-30", "2024-05-01 24:00", "2024-05-01 21:60", "21", "21:5",
        "0000-01-01", "10000-01-01", "13:00pm", "0am", "2024-05-01 21:30 extra", "２０２４-05-01", "-2024-05-01",
    ])
    func refused(text: String) {
        #expect(WrittenDate.parse(text, now: now, timeZone: seoul) == nil, "\(text)")
    }
}

/// jrnl's rule for a title typed as a run of words: the first line, or the first sentence.
@Suite("The first sentence is the title")
struct FirstSentenceTests {
    @Test("A sentence ends at its mark and the space after it", arguments: [
        ("Rain. It rained all day.", "Rain.", "It rained all day."),
        ("Rain it rained all day", "Rain it rained all day", ""),
        ("Was it? Yes!", "Was it?", "Yes!"),
        ("Wait... what", "Wait...", "what"),
        ("He said \"go.\" Then left", "He said \"go.\"", "Then left"),
        ("v1.2 is out", "v1.2 is out", ""),
        ("First line\nSecond. Third", "First line", "Second. Third"),
        ("비가 왔다。하루 종일", "비가 왔다。", "하루 종일"),
        ("오늘은 비. 내일은 맑음", "오늘은 비.", "내일은 맑음"),
        ("  Padded.  Body  ", "Padded.", "Body"),
    ])
    func split(text: String, title: String, body: String) {
        let (gotTitle, gotBody) = FirstSentence.split(text)
        #expect(gotTitle == title)
        #expect(gotBody == body)
    }
}
