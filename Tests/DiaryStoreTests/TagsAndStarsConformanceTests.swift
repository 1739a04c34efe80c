import DiaryCore
import Foundation
import Testing

/// Tags, the star and the entry's own moment, the same on every backend: kept with the entry,
/// part of its version, and carried by every way an entry is read.
@Suite("Every store keeps tags, stars and moments the same way")
struct TagsAndStarsConformanceTests {
    @Test("Tags and the star read back as written, tidied, each tag once, from every read", arguments: StoreBackend.allCases)
    func readBack(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let entry = try await store.create(try EntryText(title: "Jeju", body: "The sea was wild"), id: UUID(),
                                           tags: ["travel", "  여행 ", "Travel", "#sea", "Trip  to\tJeju"], starred: true).entry
        #expect(entry.tags == ["travel", "여행", "sea", "Trip to Jeju"])
        #expect(entry.starred && entry.version == 1)
        #expect(try await store.entry(id: entry.id) == entry)
        let row = try #require(try await store.list(after: nil, limit: 5).entries.first)
        #expect(row.tags == entry.tags && row.starred)
        #expect(try await store.export(after: nil, limit: 5).entries == [entry])
        #expect(try await store.search("sea wild", limit: 5).first?.entry.tags == entry.tags)
        let plain = try await store.create(try EntryText(title: "Plain", body: ""), id: UUID()).entry
        #expect(plain.tags.isEmpty && !plain.starred)
    }

    @Test("A tag already in the diary keeps its first spelling; one only in the trash does not count", arguments: StoreBackend.allCases)
    func firstSpelling(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let first = try await store.create(try EntryText(title: "One", body: ""), id: UUID(), tags: ["Travel", "ＦＯＯＤ"]).entry
        let second = try await store.create(try EntryText(title: "Two", body: ""), id: UUID(), tags: ["TRAVEL", "food", "new"]).entry
        #expect(second.tags == ["Travel", "ＦＯＯＤ", "new"])
        let edited = try await store.edit(id: first.id, try EntryEdit(tags: ["Travel", "NEW"]), expecting: 1)
        #expect(edited.tags == ["Travel", "new"])
        _ = try await store.moveToTrash(id: first.id)
        _ = try await store.moveToTrash(id: second.id)
        let third = try await store.create(try EntryText(title: "Three", body: ""), id: UUID(), tags: ["travel"]).entry
        #expect(third.tags == ["travel"])
    }

    @Test("Tags, the star and the moment are the writer's: each change is a new version, and a stale one conflicts", arguments: StoreBackend.allCases)
    func partOfTheVersion(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let entry = try await store.create(try EntryText(title: "Versioned", body: ""), id: UUID()).entry
        let tagged = try await store.edit(id: entry.id, try EntryEdit(tags: ["a"]), expecting: 1)
        #expect(tagged.version == 2 && tagged.tags == ["a"] && tagged.title == "Versioned")
        let starred = try await store.edit(id: entry.id, try EntryEdit(starred: true), expecting: 2)
        #expect(starred.version == 3 && starred.starred && starred.tags == ["a"])
        let moment = Date(timeIntervalSince1970: 1_600_000_000)
        let backdated = try await store.edit(id: entry.id, try EntryEdit(moment: moment), expecting: 3)
        #expect(backdated.version == 4 && backdated.createdAt == moment)
        // The same again is no change, whatever version it names.
        let again = try await store.edit(id: entry.id, try EntryEdit(tags: ["a"], starred: true, moment: moment), expecting: 1)
        #expect(again == backdated)
        // A tag change based on an older version conflicts, and changes nothing.
        await #expect(throws: EntryError.conflict(expected: 3, current: backdated)) {
            try await store.edit(id: entry.id, try EntryEdit(tags: ["b"]), expecting: 3)
        }
        // Only the words change with new words: tags and star stay.
        let reworded = try await store.update(id: entry.id, to: try EntryText(title: "Reworded", body: ""), expecting: 4)
        #expect(reworded.tags == ["a"] && reworded.starred && reworded.createdAt == moment)
        #expect(try await store.entry(id: entry.id) == reworded)
    }

    @Test("A backdated entry takes its place in the list by its new moment", arguments: StoreBackend.allCases)
    func backdatedOrder(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let now = Date()
        let older = try await store.create(try EntryText(title: "Older", body: ""), id: UUID(), at: now.addingTimeInterval(-3600)).entry
        let newer = try await store.create(try EntryText(title: "Written the next morning", body: ""), id: UUID(), at: now).entry
        #expect(try await store.list(after: nil, limit: 5).entries.map(\.id) == [newer.id, older.id])
        _ = try await store.edit(id: newer.id, try EntryEdit(moment: now.addingTimeInterval(-86_400)), expecting: 1)
        #expect(try await store.list(after: nil, limit: 5).entries.map(\.id) == [older.id, newer.id])
    }

    @Test("Trash and restore keep an entry's tags and star; an import keeps them too", arguments: StoreBackend.allCases)
    func trashAndImport(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let entry = try await store.create(try EntryText(title: "Kept", body: ""), id: UUID(), tags: ["x", "y"], starred: true).entry
        let trashed = try await store.moveToTrash(id: entry.id)
        #expect(try await store.trash(after: nil, limit: 5).entries.first?.tags == ["x", "y"])
        let restored = try await store.restore(id: entry.id)
        #expect(restored.tags == ["x", "y"] && restored.starred && trashed.tags == restored.tags)
        let imported = Entry(id: UUID(), title: "Imported", body: "", createdAt: Date(), tags: ["from a file"], starred: true)
        _ = try await store.importEntries([imported])
        #expect(try await store.entry(id: imported.id) == imported)
    }

    @Test("Bad tags and moments are refused with what is wrong, and nothing changes", arguments: StoreBackend.allCases)
    func refused(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let entry = try await store.create(try EntryText(title: "Safe", body: ""), id: UUID(), tags: ["kept"]).entry
        #expect(throws: EntryError.badTag(position: 2, "it is empty")) { try EntryEdit(tags: ["ok", "  "]) }
        #expect(throws: EntryError.badTag(position: 1, "it is longer than 100 characters")) {
            try EntryEdit(tags: [String(repeating: "가", count: 101)])
        }
        #expect(throws: EntryError.tooManyTags(limit: 50)) { try EntryEdit(tags: (1...51).map { "tag\($0)" }) }
        #expect(throws: EntryError.momentOutOfRange) { try EntryEdit(moment: Date(timeIntervalSince1970: 1e15)) }
        await #expect(throws: EntryError.self) {
            try await store.create(try EntryText(title: "Never", body: ""), id: UUID(), tags: ["a\u{7}b"]).entry
        }
        #expect(try await store.count() == 1)
        #expect(try await store.entry(id: entry.id) == entry)
        // Fifty tags of a hundred characters each are fine.
        let most = (10...59).map { String(repeating: "태", count: 98) + String($0) }
        let full = try await store.edit(id: entry.id, try EntryEdit(tags: most), expecting: 1)
        #expect(try await store.entry(id: entry.id)?.tags == most && full.tags == most)
    }
}

/// The list narrowed by tags, the star and dates, the same on every backend, page after page.
@Suite("Every store narrows the list the same way")
struct FilterConformanceTests {
    /// Thirty entries a day apart from 2020-01-01 09:00 UTC, oldest first: every second one
    /// tagged "Even", every third "Third" (spelled in turn "third" and "THIRD"), every fifth
    /// starred; the last one in the trash.
    func diary(_ backend: StoreBackend) async throws -> (Diary, [Entry]) {
        let store = try await backend.makeStore()
        let start = Date(timeIntervalSince1970: 1_577_869_200)
        var entries: [Entry] = []
        for n in 0..<30 {
            var tags: [String] = []
            if n % 2 == 0 { tags.append("Even") }
            if n % 3 == 0 { tags.append(n % 2 == 0 ? "third" : "THIRD") }
            entries.append(try await store.create(try EntryText(title: "Day \(n)", body: ""), id: UUID(),
                                                  at: start.addingTimeInterval(Double(n) * 86_400), tags: tags, starred: n % 5 == 0).entry)
        }
        _ = try await store.moveToTrash(id: entries[29].id)
        return (store, entries)
    }

    /// Every page of the filtered list, `size` rows at a time: the titles, newest first.
    func titles(_ store: Diary, _ filter: EntryFilter, size: Int = 4) async throws -> [String] {
        var titles: [String] = []
        var cursor: EntryCursor?
        repeat {
            let page = try await store.list(after: cursor, limit: size, filter: filter)
            titles += page.entries.map(\.title)
            cursor = page.nextCursor
        } while cursor != nil
        return titles
    }

    func expected(_ entries: [Entry], _ keep: (Int) -> Bool) -> [String] {
        (0..<29).filter(keep).reversed().map { "Day \($0)" }
    }

    @Test("By tag, by several tags, starred, and by dates, page after page", arguments: StoreBackend.allCases)
    func narrowed(backend: StoreBackend) async throws {
        let (store, entries) = try await diary(backend)
        #expect(try await titles(store, try EntryFilter(tags: ["even"])) == expected(entries) { $0 % 2 == 0 })
        #expect(try await titles(store, try EntryFilter(tags: ["Third"])) == expected(entries) { $0 % 3 == 0 })
        #expect(try await titles(store, try EntryFilter(tags: ["THIRD", "EVEN"]), size: 2) == expected(entries) { $0 % 6 == 0 })
        #expect(try await titles(store, try EntryFilter(starredOnly: true)) == expected(entries) { $0 % 5 == 0 })
        #expect(try await titles(store, try EntryFilter(tags: ["even"], starredOnly: true)) == expected(entries) { $0 % 10 == 0 })
        let from = entries[10].createdAt, until = entries[20].createdAt
        #expect(try await titles(store, try EntryFilter(from: from, until: until)) == expected(entries) { (10..<20).contains($0) })
        #expect(try await titles(store, try EntryFilter(tags: ["even"], from: from, until: until), size: 1)
                == expected(entries) { (10..<20).contains($0) && $0 % 2 == 0 })
        #expect(try await titles(store, try EntryFilter(tags: ["nowhere"])).isEmpty)
        // The whole diary, unfiltered, as before.
        #expect(try await titles(store, .all, size: 7) == expected(entries) { _ in true })
    }

    @Test("A changed tag, moment or trash moves an entry in and out of what a filter finds", arguments: StoreBackend.allCases)
    func followsChanges(backend: StoreBackend) async throws {
        let (store, entries) = try await diary(backend)
        let even = try EntryFilter(tags: ["even"])
        _ = try await store.edit(id: entries[1].id, try EntryEdit(tags: ["EVEN"]), expecting: 1)
        _ = try await store.edit(id: entries[2].id, try EntryEdit(tags: []), expecting: 1)
        _ = try await store.moveToTrash(id: entries[4].id)
        _ = try await store.edit(id: entries[0].id, try EntryEdit(moment: entries[28].createdAt.addingTimeInterval(60)), expecting: 1)
        var found = expected(entries) { $0 % 2 == 0 && $0 != 2 && $0 != 4 && $0 != 0 } + ["Day 1"]
        found.insert("Day 0", at: 0)
        #expect(try await titles(store, even) == found)
        _ = try await store.restore(id: entries[4].id)
        #expect(try await titles(store, even).contains("Day 4"))
        try await store.purge(id: entries[6].id)
        #expect(try await !titles(store, even).contains("Day 6"))
    }

    @Test("A filter that cannot be one is refused with why")
    func refused() {
        #expect(throws: EntryError.badFilter("A list can be narrowed by at most 10 tags.")) {
            try EntryFilter(tags: (0...10).map { "t\($0)" })
        }
        #expect(throws: EntryError.self) { try EntryFilter(tags: [""]) }
        let now = Date()
        #expect(throws: EntryError.badFilter("The dates ask for no time at all: the start must come before the end.")) {
            try EntryFilter(from: now, until: now)
        }
    }
}

/// The tag list and on this day, the same on every backend.
@Suite("Every store gives the tag list and on this day the same way")
struct TagListAndOnThisDayTests {
    @Test("The tag list counts each tag's entries (not the trash), most used first, in its first spelling", arguments: StoreBackend.allCases)
    func tagList(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let start = Date(timeIntervalSince1970: 1_600_000_000)
        _ = try await store.create(try EntryText(title: "1", body: ""), id: UUID(), at: start, tags: ["Walk", "여행"]).entry
        _ = try await store.create(try EntryText(title: "2", body: ""), id: UUID(), at: start + 60, tags: ["walk", "rain"]).entry
        let trashed = try await store.create(try EntryText(title: "3", body: ""), id: UUID(), at: start + 120, tags: ["WALK", "gone"]).entry
        _ = try await store.moveToTrash(id: trashed.id)
        _ = try await store.create(try EntryText(title: "4", body: ""), id: UUID(), at: start + 180, tags: ["Apple", "rain", "walk"]).entry
        #expect(try await store.tags() == [TagCount(tag: "Walk", count: 3), TagCount(tag: "rain", count: 2),
                                           TagCount(tag: "Apple", count: 1), TagCount(tag: "여행", count: 1)])
        #expect(try await backend.makeStore().tags().isEmpty)
    }

    @Test("On this day: each earlier year's entries of the day, in the writer's time zone, newest year first", arguments: StoreBackend.allCases)
    func onThisDay(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let seoul = TimeZone(identifier: "Asia/Seoul")!
        func at(_ iso: String) -> Date { ISODate.date(from: iso)! }
        // 2024-11-25 in Seoul runs from 2024-11-24T15:00Z to 2024-11-25T15:00Z.
        for (title, moment) in [("Seoul morning a year ago", "2024-11-24T23:00:00.000Z"),
                                ("Seoul night a year ago", "2024-11-25T14:59:00.000Z"),
                                ("The next day in Seoul", "2024-11-25T15:00:00.000Z"),
                                ("Five years ago", "2020-11-25T03:00:00.000Z"),
                                ("Today itself", "2025-11-25T01:00:00.000Z"),
                                ("Another day", "2022-06-01T03:00:00.000Z")] {
            _ = try await store.create(try EntryText(title: title, body: ""), id: UUID(), at: at(moment)).entry
        }
        let years = try await store.onThisDay(at("2025-11-25T03:00:00.000Z"), in: seoul)
        #expect(years.map(\.years) == [1, 5])
        #expect(years.first?.entries.map(\.title) == ["Seoul night a year ago", "Seoul morning a year ago"])
        #expect(years.last?.entries.map(\.title) == ["Five years ago"])
        #expect(try await store.onThisDay(at("2025-06-02T03:00:00.000Z"), in: seoul).isEmpty)
        // February 29 looks at leap years only.
        _ = try await store.create(try EntryText(title: "Leap day", body: ""), id: UUID(), at: at("2020-02-29T03:00:00.000Z")).entry
        _ = try await store.create(try EntryText(title: "Not a leap day", body: ""), id: UUID(), at: at("2023-03-01T03:00:00.000Z")).entry
        #expect(try await store.onThisDay(at("2024-02-29T03:00:00.000Z"), in: seoul).map(\.years) == [4])
    }
}

@Suite("Every store empties the trash the same way")
struct EmptyTrashConformanceTests {
    @Test("Emptying the trash deletes its entries for good, words and tags too; the diary stays", arguments: StoreBackend.allCases)
    func emptyNow(backend: StoreBackend) async throws {
        let storage = try await backend.makeStorage()
        let store = storage.diary(of: .localOwner)
        let kept = try await store.create(try EntryText(title: "Kept serenity", body: ""), id: UUID(), tags: ["t"]).entry
        for n in 0..<3 {
            let gone = try await store.create(try EntryText(title: "Gone serenity \(n)", body: ""), id: UUID(), tags: ["t"]).entry
            _ = try await store.moveToTrash(id: gone.id)
        }
        let before = try await store.changeCount()
        #expect(try await store.emptyTrash() == 3)
        #expect(try await store.changeCount() > before)
        #expect(try await store.trash(after: nil, limit: 10).entries.isEmpty)
        #expect(try await store.search("serenity", limit: 10).map(\.entry.id) == [kept.id])
        #expect(try await store.tags() == [TagCount(tag: "t", count: 1)])
        #expect(try await store.emptyTrash() == 0)
        #expect(try await store.entry(id: kept.id) == kept)
    }

    @Test("The server's emptying takes only what has been in a trash longer than the days given, in every diary", arguments: StoreBackend.allCases)
    func emptyOld(backend: StoreBackend) async throws {
        let storage = try await backend.makeStorage()
        let now = Date()
        func trashed(_ title: String, daysAgo: Double) -> Entry {
            Entry(title: title, body: "", createdAt: now.addingTimeInterval(-90 * 86_400), deletedAt: now.addingTimeInterval(-daysAgo * 86_400))
        }
        _ = try await storage.diary(of: .localOwner).importEntries([trashed("Old", daysAgo: 40), trashed("Recent", daysAgo: 10),
                                                                     Entry(title: "Live", body: "", createdAt: now)])
        let other = UserID(rawValue: 7)
        _ = try await storage.diary(of: other).importEntries([trashed("Old too", daysAgo: 31)])
        #expect(try await storage.emptyTrashes(deletedBefore: now.addingTimeInterval(-30 * 86_400)) == 2)
        #expect(try await storage.diary(of: .localOwner).trash(after: nil, limit: 10).entries.map(\.title) == ["Recent"])
        #expect(try await storage.diary(of: other).trash(after: nil, limit: 10).entries.isEmpty)
        #expect(try await storage.diary(of: .localOwner).count() == 1)
    }
}
