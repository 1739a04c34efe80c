import Foundation
import Testing

@testable import DiaryCore

/// A time the clocks skip (02:30 when they go forward) or show twice (01:30 when they go back)
/// is read by one rule wherever a time comes without a zone: a skipped time is dated as far later
/// as the clocks go forward, a repeated one the first time it happens (RFC 5545, Temporal's
/// "compatible", ECMAScript's Date).
@Suite("Times the clocks skip or repeat")
struct ClockChangeTests {
    enum Clock: Sendable { case once, skipped, repeated }

    /// (zone, the time on its clock, the moment it is dated, what the clock did there)
    static let cases: [(String, String, String, Clock)] = [
        // 02:00 → 03:00 EDT: 02:30 is 03:30 EDT.
        ("America/New_York", "2026-03-08 02:30", "2026-03-08T07:30:00.000Z", .skipped),
        ("America/New_York", "2026-03-08 02:00", "2026-03-08T07:00:00.000Z", .skipped),
        ("America/New_York", "2026-03-08 03:00", "2026-03-08T07:00:00.000Z", .once),
        // 02:00 EDT → 01:00 EST: the first 01:30 is EDT's.
        ("America/New_York", "2026-11-01 01:30", "2026-11-01T05:30:00.000Z", .repeated),
        ("Europe/Berlin", "2026-03-29 02:30", "2026-03-29T01:30:00.000Z", .skipped),
        // 03:00 CEST → 02:00 CET: the first 02:30 is CEST's (UTC+2).
        ("Europe/Berlin", "2026-10-25 02:30", "2026-10-25T00:30:00.000Z", .repeated),
        // The southern hemisphere: forward in October, back in April.
        ("Australia/Sydney", "2026-10-04 02:30", "2026-10-03T16:30:00.000Z", .skipped),
        ("Australia/Sydney", "2026-04-05 02:30", "2026-04-04T15:30:00.000Z", .repeated),
        // Lord Howe moves its clocks by 30 minutes: 02:00 → 02:30 (UTC+11), and 02:00 → 01:30.
        ("Australia/Lord_Howe", "2026-10-04 02:15", "2026-10-03T15:45:00.000Z", .skipped),
        ("Australia/Lord_Howe", "2026-04-05 01:45", "2026-04-04T14:45:00.000Z", .repeated),
        ("Asia/Seoul", "2026-03-08 02:30", "2026-03-07T17:30:00.000Z", .once),
        ("Asia/Seoul", "2026-11-01 01:30", "2026-10-31T16:30:00.000Z", .once),
        // Samoa skipped 30 December 2011 whole, from UTC−10 to UTC+14: its noon is the 31st's.
        ("Pacific/Apia", "2011-12-30 12:00", "2011-12-30T22:00:00.000Z", .skipped),
    ]

    @Test("A local time is dated by the rule, whichever zone", arguments: cases)
    func rule(zone: String, local: String, expected: String, clock: Clock) throws {
        let time = try #require(Self.localTime(local))
        let reading = time.reading(in: try #require(TimeZone(identifier: zone)))
        #expect(ISODate.string(from: reading.moment) == expected, "\(local) in \(zone)")
        switch (reading, clock) {
        case (.once, .once), (.skipped, .skipped), (.repeated, .repeated): break
        default: Issue.record("\(local) in \(zone) read as \(reading), not \(clock)")
        }
    }

    @Test("The command line's dates and jrnl's read a local time the same way", arguments: cases)
    func everywhere(zone: String, local: String, expected: String, clock: Clock) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let written = WrittenDate.parse(local, timeZone: timeZone).map(ISODate.string(from:))
        #expect(written == expected, "diary new --date \"\(local)\" in \(zone)")
        #expect(JrnlFile.moment(local, zone: timeZone).map(ISODate.string(from:)) == expected, "[\(local)] in \(zone)")
        #expect(JrnlFile.moment(local + ":00", zone: timeZone).map(ISODate.string(from:)) == expected, "jrnl's seconds")
    }

    @Test("What a skipped or repeated time says: how far the clocks go forward, and the other of the two")
    func readings() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        guard case .skipped(_, let forward) = try #require(Self.localTime("2026-03-08 02:30")).reading(in: newYork) else {
            Issue.record("02:30 is skipped")
            return
        }
        #expect(forward == 3600)
        guard case .repeated(let first, let second) = try #require(Self.localTime("2026-11-01 01:30")).reading(in: newYork) else {
            Issue.record("01:30 is repeated")
            return
        }
        #expect(ISODate.string(from: first) == "2026-11-01T05:30:00.000Z" && ISODate.string(from: second) == "2026-11-01T06:30:00.000Z")
        let apia = try #require(TimeZone(identifier: "Pacific/Apia"))
        guard case .skipped(_, let day) = try #require(Self.localTime("2011-12-30 12:00")).reading(in: apia) else {
            Issue.record("30 December 2011 is skipped in Samoa")
            return
        }
        #expect(day == 86_400)
    }

    @Test("A day whose midnight the clocks skip starts when they land, not in the day before")
    func skippedMidnight() throws {
        // Santiago goes from 00:00 (UTC−4) to 01:00 (UTC−3) on 6 September 2026.
        let santiago = try #require(TimeZone(identifier: "America/Santiago"))
        let day = try #require(WrittenDate.day("2026-09-06", timeZone: santiago))
        #expect(ISODate.string(from: day.start) == "2026-09-06T04:00:00.000Z")
        #expect(ISODate.string(from: day.next) == "2026-09-07T03:00:00.000Z")
    }

    @Test("A jrnl import counts the times the clocks skip and repeat, in its journal and its JSON")
    func jrnlCounts() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let journal = "[2026-03-08 02:30] Skipped hour.\n\n[2026-11-01 01:30] Repeated hour.\n\n[2026-11-01 09:00] Plain.\n"
        let file = try ImportFile.read(Data(journal.utf8), zone: newYork, zoneName: "America/New_York")
        #expect(file.format == .jrnl)
        #expect(file.clockChanges == ClockChanges(skipped: 1, repeated: 1))
        #expect(file.entries.map { ISODate.string(from: $0.createdAt) }
            == ["2026-03-08T07:30:00.000Z", "2026-11-01T05:30:00.000Z", "2026-11-01T14:00:00.000Z"])
        let json = #"{"tags": {}, "entries": [{"title": "Skipped", "body": "", "date": "2026-03-08", "time": "02:30", "tags": [], "starred": false}]}"#
        let exported = try ImportFile.read(Data(json.utf8), zone: newYork, zoneName: "America/New_York")
        #expect(exported.format == .jrnlJSON && exported.clockChanges == ClockChanges(skipped: 1, repeated: 0))
        #expect(exported.entries.map { ISODate.string(from: $0.createdAt) } == ["2026-03-08T07:30:00.000Z"])
    }

    @Test("jrnl's days before 1582 are Gregorian, as jrnl and ISO 8601 count them, both ways")
    func jrnlOldDays() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(JrnlFile.moment("1500-06-15 12:00", zone: utc).map(ISODate.string(from:)) == "1500-06-15T12:00:00.000Z")
        let entry = Entry(id: UUID(), title: "Old", body: "", createdAt: try ISODate.parse("1500-06-15T12:00:00.000Z").get())
        let record = try #require(try JSONSerialization.jsonObject(with: JrnlFile.record(for: entry, zone: utc)) as? [String: Any])
        #expect(record["date"] as? String == "1500-06-15" && record["time"] as? String == "12:00")
    }

    static func localTime(_ text: String) -> LocalTime? {
        let parts = text.split(separator: " ")
        let clock = parts[1].split(separator: ":").compactMap { Int($0) }
        guard let day = LocalDay(String(parts[0])) else { return nil }
        return LocalTime(day: day, hour: clock[0], minute: clock[1])
    }
}
