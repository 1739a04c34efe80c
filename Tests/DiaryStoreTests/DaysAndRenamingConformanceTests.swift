import DiaryCore
import Foundation
import Testing

/// Moments given as the writer's clock shows them in `zone`.
private func moment(_ text: String, _ zone: TimeZone) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = text.split(whereSeparator: { "- :".contains($0) }).map { Int($0)! }
    return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4]))!
}

private let seoul = TimeZone(identifier: "Asia/Seoul")!
private let newYork = TimeZone(identifier: "America/New_York")!

@Suite("Every store gives the calendar and the year at a glance the same way")
struct DaysConformanceTests {
    /// Entries at given moments of Seoul, each with its words.
    static func diary(_ backend: StoreBackend, _ written: [(String, String)]) async throws -> Diary {
        let store = try await backend.makeStore()
        for (when, body) in written {
            _ = try await store.create(try EntryText(title: "", body: body), id: UUID(), at: moment(when, seoul)).entry
        }
        return store
    }

    @Test("A month marks the days written in the writer's time zone, with entries and words; the trash does not count",
          arguments: StoreBackend.allCases)
    func calendarMonth(backend: StoreBackend) async throws {
        let store = try await Self.diary(backend, [
            ("2024-05-01 00:30", "Just after midnight"),  // April 30 in New York
            ("2024-05-03 09:00", "one two three"), ("2024-05-03 22:00", "네 다섯"),
            ("2024-05-31 23:59", "last day"), ("2024-06-01 00:00", "June"), ("2024-04-30 23:59", "April"),
        ])
        let may = try await store.calendar(year: 2024, month: 5, in: seoul)
        #expect(may.month == "2024-05")
        #expect(may.days == [
            DayTally(date: "2024-05-01", entries: 1, words: 3), DayTally(date: "2024-05-03", entries: 2, words: 5),
            DayTally(date: "2024-05-31", entries: 1, words: 2),
        ])
        // The same moments are other days in New York.
        let there = try await store.calendar(year: 2024, month: 5, in: newYork)
        #expect(there.days.map(\.date) == ["2024-05-02", "2024-05-03", "2024-05-31"])
        let trashed = try #require(try await store.list(after: nil, limit: 10).entries.first { $0.excerpt == "last day" })
        _ = try await store.moveToTrash(id: trashed.id)
        #expect(try await store.calendar(year: 2024, month: 5, in: seoul).days.map(\.date) == ["2024-05-01", "2024-05-03"])
        #expect(try await store.calendar(year: 2024, month: 7, in: seoul).days.isEmpty)
        // A changed text changes the words counted.
        let first = try #require(try await store.list(after: nil, limit: 10).entries.first { $0.excerpt == "one two three" })
        _ = try await store.update(id: first.id, to: try EntryText(title: "Title words", body: "one"), expecting: nil)
        #expect(try await store.calendar(year: 2024, month: 5, in: seoul).days[1].words == 5)
    }

    @Test("The year at a glance: days, months, entries, words and the year's longest streak", arguments: StoreBackend.allCases)
    func yearAtAGlance(backend: StoreBackend) async throws {
        let store = try await Self.diary(backend, [
            ("2023-12-31 12:00", "last year"),
            ("2024-01-01 08:00", "a b"), ("2024-01-02 08:00", "c"), ("2024-01-03 08:00", "d"),
            ("2024-02-10 08:00", "e"), ("2024-02-11 08:00", "f f"), ("2024-02-11 20:00", "g"),
            ("2024-12-31 23:00", "h"),
        ])
        let year = try await store.yearAtAGlance(2024, in: seoul, today: moment("2026-11-25 12:00", seoul))
        #expect(year.year == 2024 && year.entries == 7 && year.words == 9 && year.daysWritten == 6)
        #expect(year.days.map(\.date) == ["2024-01-01", "2024-01-02", "2024-01-03", "2024-02-10", "2024-02-11", "2024-12-31"])
        #expect(year.months.count == 12 && year.months[0] == MonthTally(month: "2024-01", entries: 3, words: 4))
        #expect(year.months[1] == MonthTally(month: "2024-02", entries: 3, words: 4) && year.months[11].entries == 1)
        #expect(year.months[5] == MonthTally(month: "2024-06", entries: 0, words: 0))
        // The streak that began on December 31 counts only its days within the year.
        #expect(year.longestStreak == Streak(days: 3, from: "2024-01-01", through: "2024-01-03"))
        #expect(year.currentStreak == nil)
        let empty = try await store.yearAtAGlance(1999, in: seoul)
        #expect(empty.entries == 0 && empty.days.isEmpty && empty.longestStreak == nil && empty.months.count == 12)
    }

    @Test("The current streak runs to today, or to yesterday before today is written, across years", arguments: StoreBackend.allCases)
    func currentStreak(backend: StoreBackend) async throws {
        // Every day from 2025-10-01 to 2026-01-02, then a gap, then nothing until January 5.
        var written: [(String, String)] = []
        var day = LocalDay(year: 2025, month: 10, day: 1)!
        while day <= LocalDay(year: 2026, month: 1, day: 2)! {
            written.append((day.iso + " 21:00", "day"))
            day = day.advanced(by: 1)
        }
        let store = try await Self.diary(backend, written)
        let running = try await store.currentStreak(today: moment("2026-01-02 23:00", seoul), in: seoul)
        #expect(running == Streak(days: 94, from: "2025-10-01", through: "2026-01-02"))
        // The next morning, nothing written yet: the streak still stands, up to yesterday.
        #expect(try await store.currentStreak(today: moment("2026-01-03 07:00", seoul), in: seoul)?.days == 94)
        // A day missed ends it.
        #expect(try await store.currentStreak(today: moment("2026-01-04 07:00", seoul), in: seoul) == nil)
        // In another time zone the days are others: 21:00 in Seoul is 07:00 the same day in New York.
        #expect(try await store.currentStreak(today: moment("2026-01-02 12:00", newYork), in: newYork)?.days == 94)
        let year = try await store.yearAtAGlance(2025, in: seoul, today: moment("2026-01-02 23:00", seoul))
        #expect(year.longestStreak == Streak(days: 92, from: "2025-10-01", through: "2025-12-31"))
        #expect(year.currentStreak?.days == 94)
    }

    @Test("Around a clock change at local midnight, each entry falls on its own day", arguments: StoreBackend.allCases)
    func clockChange(backend: StoreBackend) async throws {
        // Tehran moved from +03:30 to +04:30 at midnight of 2022-03-22 (20:30 UTC).
        let store = try await backend.makeStore()
        for utc in ["2022-03-21T20:15:00Z", "2022-03-21T20:45:00Z"] {
            _ = try await store.create(try EntryText(title: utc, body: ""), id: UUID(), at: ISODate.date(from: utc)!).entry
        }
        let march = try await store.calendar(year: 2022, month: 3, in: TimeZone(identifier: "Asia/Tehran")!)
        #expect(march.days.map(\.date) == ["2022-03-21", "2022-03-22"])
    }

    @Test("A month or year that cannot be is refused")
    func badMonths() async throws {
        let store = try await StoreBackend.sqlite.makeStore()
        for (year, month) in [(0, 1), (10_000, 1), (2024, 0), (2024, 13)] {
            await #expect(throws: EntryError.self) { try await store.calendar(year: year, month: month, in: seoul) }
        }
        await #expect(throws: EntryError.self) { try await store.yearAtAGlance(0, in: seoul) }
        // The first and last months there are: nothing overflows.
        #expect(try await store.calendar(year: 1, month: 1, in: seoul).days.isEmpty)
        #expect(try await store.calendar(year: 9999, month: 12, in: newYork).days.isEmpty)
        #expect(try await store.yearAtAGlance(9999, in: seoul).entries == 0)
        #expect(try await store.yearAtAGlance(1, in: newYork).entries == 0)
    }
}

@Suite("Every store renames and merges tags the same way")
struct TagRenamingConformanceTests {
    @Test("Renaming changes the tag on every entry that has it, trash too, each as its next version", arguments: StoreBackend.allCases)
    func rename(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let one = try await store.create(try EntryText(title: "One", body: ""), id: UUID(), tags: ["trip", "food"]).entry
        let two = try await store.create(try EntryText(title: "Two", body: ""), id: UUID(), tags: ["Trip"]).entry
        let other = try await store.create(try EntryText(title: "Other", body: ""), id: UUID(), tags: ["home"]).entry
        let trashed = try await store.create(try EntryText(title: "Trashed", body: ""), id: UUID(), tags: ["food", "trip"]).entry
        _ = try await store.moveToTrash(id: trashed.id)
        let before = try await store.changeCount()

        #expect(try await store.renameTag("TRIP", to: "여행") == 3)
        #expect(try await store.entry(id: one.id)?.tags == ["여행", "food"])
        #expect(try await store.entry(id: one.id)?.version == 2)
        #expect(try await store.entry(id: two.id)?.tags == ["여행"])
        #expect(try await store.entry(id: other.id) == other)
        #expect(try await store.entry(id: trashed.id)?.tags == ["food", "여행"])
        #expect(try await store.changeCount() > before)
        #expect(try await store.tags() == [TagCount(tag: "여행", count: 2), TagCount(tag: "food", count: 1), TagCount(tag: "home", count: 1)])
        #expect(try await store.list(after: nil, limit: 10, filter: try EntryFilter(tags: ["trip"])).entries.isEmpty)
        #expect(try await store.list(after: nil, limit: 10, filter: try EntryFilter(tags: ["여행"])).entries.map(\.id) == [two.id, one.id])
        // Restored, the entry has the new name in the diary's lists too.
        _ = try await store.restore(id: trashed.id)
        #expect(try await store.tags().first == TagCount(tag: "여행", count: 3))
        // A tag no entry has renames nothing.
        #expect(try await store.renameTag("nowhere", to: "somewhere") == 0)
    }

    @Test("Renaming to a tag the diary has merges the two, spelled as asked, each entry keeping it once", arguments: StoreBackend.allCases)
    func merge(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let both = try await store.create(try EntryText(title: "Both", body: ""), id: UUID(), tags: ["trip", "x", "travel"]).entry
        let travel = try await store.create(try EntryText(title: "Travel", body: ""), id: UUID(), tags: ["travel"]).entry
        let trip = try await store.create(try EntryText(title: "Trip", body: ""), id: UUID(), tags: ["trip"]).entry
        #expect(try await store.renameTag("trip", to: "Travel") == 3)
        #expect(try await store.entry(id: both.id)?.tags == ["Travel", "x"])
        #expect(try await store.entry(id: travel.id)?.tags == ["Travel"])
        #expect(try await store.entry(id: trip.id)?.tags == ["Travel"])
        #expect(try await store.tags().first == TagCount(tag: "Travel", count: 3))
        // Spelled so already everywhere: nothing to do, no new version.
        #expect(try await store.renameTag("travel", to: "Travel") == 0)
        #expect(try await store.entry(id: travel.id)?.version == 2)
        // A change of spelling alone is a rename too.
        #expect(try await store.renameTag("travel", to: "TRAVEL") == 3)
        #expect(try await store.tags().first == TagCount(tag: "TRAVEL", count: 3))
    }

    @Test("A tag on more entries than one batch is renamed on all of them", arguments: StoreBackend.allCases)
    func manyEntries(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let start = Date(timeIntervalSince1970: 1_600_000_000)
        let entries = (0..<1_203).map { n in
            Entry(id: UUID(), title: "Bulk \(n)", body: "", createdAt: start.addingTimeInterval(Double(n) * 60),
                  updatedAt: start, tags: n % 2 == 0 ? ["bulk", "even"] : ["bulk"])
        }
        _ = try await store.importEntries(entries)
        #expect(try await store.renameTag("bulk", to: "many") == 1_203)
        #expect(try await store.tags() == [TagCount(tag: "many", count: 1_203), TagCount(tag: "even", count: 602)])
        #expect(try await store.list(after: nil, limit: 10, filter: try EntryFilter(tags: ["bulk"])).entries.isEmpty)
        #expect(try await store.entry(id: entries[1_202].id)?.version == 2)
    }

    @Test("An editor open on a renamed entry gets the conflict choice; a bad name is refused and nothing changes",
          arguments: StoreBackend.allCases)
    func conflictsAndBadNames(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let entry = try await store.create(try EntryText(title: "Open", body: ""), id: UUID(), tags: ["old"]).entry
        _ = try await store.renameTag("old", to: "new")
        await #expect(throws: EntryError.self) {
            try await store.update(id: entry.id, to: try EntryText(title: "Open", body: "typed"), expecting: 1)
        }
        for (from, to) in [("", "x"), ("new", "  "), ("new", String(repeating: "가", count: 101)), ("new", "a\u{7}b")] {
            await #expect(throws: EntryError.self) { try await store.renameTag(from, to: to) }
        }
        #expect(try await store.entry(id: entry.id)?.tags == ["new"])
        #expect(try await store.entry(id: entry.id)?.version == 2)
    }
}

@Suite("Every store narrows a search the same way")
struct SearchFilterConformanceTests {
    @Test("Search by words and tags, the star and dates together", arguments: StoreBackend.allCases)
    func narrowed(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let old = try await store.create(try EntryText(title: "Sea", body: "the sea in 2020"), id: UUID(),
                                         at: moment("2020-06-01 12:00", seoul), tags: ["travel", "바다"]).entry
        let starred = try await store.create(try EntryText(title: "Sea again", body: "the sea in 2024"), id: UUID(),
                                             at: moment("2024-06-01 12:00", seoul), tags: ["travel"], starred: true).entry
        let home = try await store.create(try EntryText(title: "Home", body: "no sea here, 바다 없음"), id: UUID(),
                                          at: moment("2024-07-01 12:00", seoul)).entry
        func found(_ filter: EntryFilter, _ words: String = "sea") async throws -> Set<UUID> {
            Set(try await store.search(words, limit: 10, filter: filter).map(\.entry.id))
        }
        #expect(try await found(.all) == [old.id, starred.id, home.id])
        #expect(try await found(try EntryFilter(tags: ["Travel"])) == [old.id, starred.id])
        #expect(try await found(try EntryFilter(tags: ["travel", "바다"])) == [old.id])
        #expect(try await found(try EntryFilter(starredOnly: true)) == [starred.id])
        #expect(try await found(try EntryFilter(from: moment("2024-01-01 00:00", seoul))) == [starred.id, home.id])
        #expect(try await found(try EntryFilter(until: moment("2024-06-01 12:00", seoul))) == [old.id])
        #expect(try await found(try EntryFilter(tags: ["travel"], starredOnly: true, from: moment("2024-01-01 00:00", seoul))) == [starred.id])
        #expect(try await found(try EntryFilter(tags: ["nowhere"])).isEmpty)
        #expect(try await found(.all, "바다") == [home.id])
        #expect(try await found(try EntryFilter(tags: ["바다"]), "바다").isEmpty)
        #expect(try await found(try EntryFilter(from: moment("2024-07-01 00:00", seoul), until: moment("2024-07-02 00:00", seoul)), "바다") == [home.id])
    }
}
