import DiaryCore
import Foundation
import Testing

private let seoul = TimeZone(identifier: "Asia/Seoul")!
private let london = TimeZone(identifier: "Europe/London")!

/// 2024-05-01 07:30 in Seoul: still April 30 (23:30) in London.
private let seoulMorning = Date(timeIntervalSince1970: 1_714_516_200)

@Suite("Every store keeps each entry's writer's time zone, and counts its days in it")
struct TimeZonesConformanceTests {
    @Test("The zone is kept on create, read back everywhere an entry shows, and changed only when an edit gives one",
          arguments: StoreBackend.allCases)
    func kept(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let zoned = try await store.create(try EntryText(title: "Seoul morning", body: "아침 산책"), id: UUID(), at: seoulMorning,
                                           timeZone: "Asia/Seoul").entry
        let plain = try await store.create(try EntryText(title: "No zone", body: "morning walk"), id: UUID(), at: seoulMorning).entry
        #expect(zoned.timeZone == "Asia/Seoul" && plain.timeZone == nil)
        #expect(try await store.entry(id: zoned.id)?.timeZone == "Asia/Seoul")
        #expect(try await store.entry(id: plain.id)?.timeZone == nil)
        let rows = try await store.list(after: nil, limit: 10).entries
        #expect(rows.first { $0.id == zoned.id }?.timeZone == "Asia/Seoul")
        #expect(rows.first { $0.id == plain.id }?.timeZone == nil)
        #expect(try await store.search("산책", limit: 10).first?.entry.timeZone == "Asia/Seoul")
        #expect(try await store.export(after: nil, limit: 10).entries.first { $0.id == zoned.id }?.timeZone == "Asia/Seoul")

        // An edit that says nothing of the zone leaves it; one that gives a zone changes it
        // (and is a new version), in its own spelling.
        let starred = try await store.edit(id: zoned.id, try EntryEdit(starred: true), expecting: 1)
        #expect(starred.timeZone == "Asia/Seoul")
        let moved = try await store.edit(id: zoned.id, try EntryEdit(timeZone: "Europe/London"), expecting: 2)
        #expect(moved.timeZone == "Europe/London" && moved.version == 3)
        #expect(try await store.entry(id: zoned.id)?.timeZone == "Europe/London")
        // The same zone again is no change at all.
        let again = try await store.edit(id: zoned.id, try EntryEdit(timeZone: "Europe/London"), expecting: 3)
        #expect(again.version == 3)
        // The trash and back keep it.
        _ = try await store.moveToTrash(id: zoned.id)
        #expect(try await store.restore(id: zoned.id).timeZone == "Europe/London")
    }

    @Test("An import keeps each entry's zone", arguments: StoreBackend.allCases)
    func imported(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let entries = [
            Entry(title: "Zoned", body: "", createdAt: seoulMorning, timeZone: "Asia/Seoul"),
            Entry(title: "Not", body: "", createdAt: seoulMorning),
        ]
        _ = try await store.importEntries(entries)
        for entry in entries { #expect(try await store.entry(id: entry.id)?.timeZone == entry.timeZone) }
    }

    @Test("The calendar, the year and on this day count an entry on the day it was written in its own zone",
          arguments: StoreBackend.allCases)
    func days(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        _ = try await store.create(try EntryText(title: "Seoul", body: "one two"), id: UUID(), at: seoulMorning, timeZone: "Asia/Seoul").entry
        _ = try await store.create(try EntryText(title: "Unzoned", body: "three"), id: UUID(), at: seoulMorning).entry
        // Read in London: the zoned entry is on May 1 (as in Seoul), the other on April 30.
        let may = try await store.calendar(year: 2024, month: 5, in: london)
        #expect(may.days == [DayTally(date: "2024-05-01", entries: 1, words: 3)])
        let april = try await store.calendar(year: 2024, month: 4, in: london)
        #expect(april.days == [DayTally(date: "2024-04-30", entries: 1, words: 2)])
        let year = try await store.yearAtAGlance(2024, in: london, today: seoulMorning)
        #expect(year.days.map(\.date) == ["2024-04-30", "2024-05-01"])
        // A year later, on May 1 in London: the Seoul entry is a year ago; the other is not.
        let mayDay = Date(timeIntervalSince1970: 1_746_100_800)  // 2025-05-01 12:00 UTC
        let memories = try await store.onThisDay(mayDay, in: london)
        #expect(memories.map(\.years) == [1] && memories.first?.entries.map(\.title) == ["Seoul"])
        let aprilDay = mayDay - 86_400
        #expect(try await store.onThisDay(aprilDay, in: london).first?.entries.map(\.title) == ["Unzoned"])
    }

    @Test("On this day finds the oldest entry on its own clock's year, and its day's entry behind many of the next day's",
          arguments: StoreBackend.allCases)
    func onThisDayEdges(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        // The diary's oldest entry: 11:00 UTC on 1 January 2020, still 31 December 2019 at UTC−12.
        _ = try await store.create(try EntryText(title: "New Year's Eve", body: ""), id: UUID(),
                                   at: Date(timeIntervalSince1970: 1_577_876_400), timeZone: "Etc/GMT+12").entry
        let eve = try await store.onThisDay(Date(timeIntervalSince1970: 1_767_182_400), in: .gmt)  // 2025-12-31 12:00 UTC
        #expect(eve.map(\.years) == [6] && eve.first?.entries.map(\.title) == ["New Year's Eve"])
        // 70 entries of 2 May 2024 (UTC) come first in the span read; 1 May's, of Seoul, after them.
        for minute in 0..<70 {
            _ = try await store.create(try EntryText(title: "May 2, \(minute)", body: ""), id: UUID(),
                                       at: Date(timeIntervalSince1970: 1_714_651_200 + Double(minute * 60))).entry
        }
        _ = try await store.create(try EntryText(title: "Seoul", body: ""), id: UUID(), at: seoulMorning, timeZone: "Asia/Seoul").entry
        let may = try await store.onThisDay(Date(timeIntervalSince1970: 1_746_100_800), in: .gmt, perYear: 1)  // 2025-05-01
        #expect(may.map(\.years) == [1] && may.first?.entries.map(\.title) == ["Seoul"])
    }

    @Test("A zone is kept as given when it names one; any other name is no zone, never a refused entry")
    func checked() throws {
        for bad in ["", "Etc/Unknown", "Not/AZone", "../../etc/passwd", "/etc/localtime", "Asia/Seoul\u{0}",
                    String(repeating: "A", count: 65), "Asia/서울", "UTC; DROP TABLE entry", "GMT+1800", "GMT-18"] {
            #expect(try EntryEdit(timeZone: bad).timeZone == nil, "\(bad)")
        }
        #expect(try EntryEdit(timeZone: "Asia/Seoul").timeZone == "Asia/Seoul")
        #expect(try EntryEdit(timeZone: "UTC").timeZone == "UTC")
    }
}
