import DiaryCore
import Foundation
import Testing

/// What every backend's `EntryRows` must do, through `Diary`, whatever keeps the entries.
@Suite("Every store keeps entries the same way")
struct EntryRowsConformanceTests {
    @Test("A new entry reads back as written, at version 1", arguments: StoreBackend.allCases)
    func createAndRead(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let created = try await store.create(try EntryText(title: "Rain", body: "It rained all day."), id: UUID()).entry
        let found = try await store.entry(id: created.id)
        let read = try #require(found)
        #expect(read == created)
        #expect(read.version == 1)
        #expect(read.title == "Rain" && read.body == "It rained all day.")
    }

    @Test("The change count goes up with every kind of change, and only with changes", arguments: StoreBackend.allCases)
    func changeCount(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        var last = try await store.changeCount()
        /// Whether the count moved since the last look.
        func moved() async throws -> Bool {
            let now = try await store.changeCount()
            defer { last = now }
            return now > last
        }
        let entry = try await store.create(try EntryText(title: "Counted", body: ""), id: UUID()).entry
        #expect(try await moved(), "create")
        _ = try await store.list(after: nil, limit: 20)
        _ = try await store.entry(id: entry.id)
        _ = try await store.search("counted", limit: 5)
        #expect(try await !moved(), "reads")
        _ = try await store.update(id: entry.id, to: try EntryText(title: "Counted", body: "again"), expecting: 1)
        #expect(try await moved(), "update")
        let sunny = Weather(provider: "open-meteo", condition: .clear, description: "clear sky", isDay: true, temperatureCelsius: 20)
        try await store.attachWeather(sunny, to: entry.id)
        #expect(try await moved(), "weather")
        _ = try await store.moveToTrash(id: entry.id)
        #expect(try await moved(), "trash")
        _ = try await store.restore(id: entry.id)
        #expect(try await moved(), "restore")
        try await store.purge(id: entry.id)
        #expect(try await moved(), "purge")
        let imported = Entry(id: UUID(), title: "Imported", body: "", createdAt: Date())
        _ = try await store.importEntries([imported])
        #expect(try await moved(), "import")
    }

    @Test("Creating again with the same id returns the first entry, not a second one", arguments: StoreBackend.allCases)
    func createIsIdempotent(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let id = UUID()
        let first = try await store.create(try EntryText(title: "Once", body: ""), id: id).entry
        let again = try await store.create(try EntryText(title: "Once", body: ""), id: id).entry
        #expect(again == first)
        #expect(try await store.count() == 1)
    }

    @Test("A retry with newer words replaces the first try's only while the entry is at the version it names", arguments: StoreBackend.allCases)
    func retriedCreateWithNewerWords(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let id = UUID()
        // A first try never names a version: arriving after a retry, it leaves the retry's words.
        let retried = try await store.create(try EntryText(title: "Train", body: "All of it"), id: id, location: nil, basedOn: 1).entry
        let late = try await store.create(try EntryText(title: "Train", body: ""), id: id).entry
        #expect(late == retried && retried.version == 1)
        // The first try got through with the title alone: the retry's words take its place.
        let other = UUID()
        _ = try await store.create(try EntryText(title: "Bus", body: ""), id: other).entry
        let newer = try await store.create(try EntryText(title: "Bus", body: "The whole ride"), id: other, location: nil, basedOn: 1).entry
        #expect(newer.body == "The whole ride" && newer.version == 2)
        #expect(try await store.entry(id: other) == newer)
        // Changed since (by another tab, say): a retry based on the first version changes nothing.
        let stale = try await store.create(try EntryText(title: "Bus", body: "Older words"), id: other, location: nil, basedOn: 1).entry
        #expect(stale == newer)
        #expect(try await store.count() == 2)
    }

    @Test("An update grows the version; one based on an old version is refused and changes nothing", arguments: StoreBackend.allCases)
    func staleUpdateIsRefused(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let entry = try await store.create(try EntryText(title: "Draft", body: ""), id: UUID()).entry
        let changed = try await store.update(id: entry.id, to: try EntryText(title: "Draft", body: "More"), expecting: 1)
        #expect(changed.version == 2)
        await #expect(throws: EntryError.conflict(expected: 1, current: changed)) {
            try await store.update(id: entry.id, to: try EntryText(title: "Other tab", body: ""), expecting: 1)
        }
        #expect(try await store.entry(id: entry.id) == changed)
    }

    @Test("Many writes at once: each that succeeds is kept, each refused one changes nothing and fails alone", arguments: StoreBackend.allCases)
    func concurrentWrites(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let shared = try await store.create(try EntryText(title: "Shared", body: ""), id: UUID()).entry
        // 40 new entries, and 40 updates of one entry all based on version 1: exactly one of
        // those may win; the other 39 are conflicts, which must not undo anything else.
        let outcomes = await withTaskGroup(of: (created: Entry?, updated: Entry?, conflict: Bool).self) { group in
            for number in 0..<40 {
                group.addTask {
                    (try? await store.create(try EntryText(title: "New \(number)", body: "Body \(number)"), id: UUID()).entry, nil, false)
                }
                group.addTask {
                    do {
                        let entry = try await store.update(id: shared.id, to: try EntryText(title: "Tab \(number)", body: ""), expecting: 1)
                        return (nil, entry, false)
                    } catch EntryError.conflict {
                        return (nil, nil, true)
                    } catch {
                        return (nil, nil, false)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let created = outcomes.compactMap(\.created)
        let winners = outcomes.compactMap(\.updated)
        #expect(created.count == 40)
        #expect(winners.count == 1)
        #expect(outcomes.filter(\.conflict).count == 39)
        for entry in created { #expect(try await store.entry(id: entry.id) == entry) }
        #expect(try await store.entry(id: shared.id) == winners.first)
        #expect(try await store.count() == 41)
    }

    @Test("Saving the same words again is no change, whatever version it was based on", arguments: StoreBackend.allCases)
    func sameWordsAreNoChange(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let entry = try await store.create(try EntryText(title: "A", body: ""), id: UUID()).entry
        let changed = try await store.update(id: entry.id, to: try EntryText(title: "A", body: "b"), expecting: 1)
        let retried = try await store.update(id: entry.id, to: try EntryText(title: "A", body: "b"), expecting: 1)
        #expect(retried == changed)
    }

    @Test("Updating an unknown entry says it is not found", arguments: StoreBackend.allCases)
    func unknownUpdate(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let id = UUID()
        await #expect(throws: EntryError.notFound(id.diaryString)) {
            try await store.update(id: id, to: try EntryText(title: "x", body: ""), expecting: nil)
        }
    }

    @Test("The list is newest first, a page at a time, each entry exactly once", arguments: StoreBackend.allCases)
    func keysetPages(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let base = Date(timeIntervalSince1970: 1_600_000_000)
        // 25 entries, with ties in time to prove the tie-break keeps pages apart.
        let entries = (0..<25).map { index in
            Entry(title: "Entry \(index)", body: "", createdAt: base.addingTimeInterval(Double(index / 2) * 60))
        }
        _ = try await store.importEntries(entries)
        var seen: [UUID] = []
        var cursor: EntryCursor?
        var pages = 0
        repeat {
            let page = try await store.list(after: cursor, limit: 10)
            seen += page.entries.map(\.id)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil
        #expect(pages == 3)
        #expect(seen.count == 25 && Set(seen).count == 25)
        let times = try await store.list(after: nil, limit: 25).entries.map(\.createdAt)
        #expect(times == times.sorted(by: >))
        // Of entries written in the same millisecond, the one added last comes first.
        let titles = try await store.list(after: nil, limit: 3).entries.map(\.title)
        #expect(titles == ["Entry 24", "Entry 23", "Entry 22"])
    }

    @Test("The trash: moved, listed, restored, purged", arguments: StoreBackend.allCases)
    func trashCycle(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let keep = try await store.create(try EntryText(title: "Keep", body: ""), id: UUID()).entry
        let toss = try await store.create(try EntryText(title: "Toss", body: "serenity"), id: UUID()).entry
        let trashed = try await store.moveToTrash(id: toss.id)
        #expect(trashed.deletedAt != nil)
        #expect(try await store.list(after: nil, limit: 10).entries.map(\.id) == [keep.id])
        #expect(try await store.trash(after: nil, limit: 10).entries.map(\.id) == [toss.id])
        #expect(try await store.search("serenity", limit: 10).isEmpty)
        #expect(try await store.count() == 1)

        let restored = try await store.restore(id: toss.id)
        #expect(restored.deletedAt == nil)
        #expect(try await store.search("serenity", limit: 10).map(\.entry.id) == [toss.id])

        try await store.purge(id: toss.id)
        #expect(try await store.entry(id: toss.id) == nil)
        #expect(try await store.search("serenity", limit: 10).isEmpty)
        await #expect(throws: EntryError.notFound(toss.id.diaryString)) { try await store.restore(id: toss.id) }
    }

    @Test("Search finds Korean inside words and English by word, with a snippet", arguments: StoreBackend.allCases)
    func search(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let diary = try await store.create(try EntryText(title: "수요일", body: "오늘 일기를 썼다"), id: UUID()).entry
        let middle = try await store.create(try EntryText(title: "", body: "할머니께서 떡볶이를 만드셨다"), id: UUID()).entry
        let soul = try await store.create(try EntryText(title: "Spring", body: "A wonderful serenity has taken possession of my entire soul"), id: UUID()).entry

        #expect(try await store.search("일기", limit: 10).map(\.entry.id) == [diary.id])
        // Two syllables from the middle of a longer word.
        #expect(try await store.search("볶이", limit: 10).map(\.entry.id) == [middle.id])
        // Three syllables across the token boundary.
        #expect(try await store.search("떡볶이", limit: 10).map(\.entry.id) == [middle.id])
        let hits = try await store.search("serenity", limit: 10)
        #expect(hits.map(\.entry.id) == [soul.id])
        #expect(hits[0].snippet.contains("serenity"))
        #expect(try await store.search("seren", limit: 10).map(\.entry.id) == [soul.id])
        #expect(try await store.search("Serenity soul", limit: 10).map(\.entry.id) == [soul.id])
        #expect(try await store.search("serenity 일기", limit: 10).isEmpty)
        #expect(try await store.search("\"*(", limit: 10).isEmpty)
    }

    @Test("Search ranks a title match above a passing mention", arguments: StoreBackend.allCases)
    func ranking(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let mention = try await store.create(try EntryText(title: "Tuesday", body: "Work, lunch, a walk, and some rain later, then a long evening of reading and rain."), id: UUID()).entry
        let titled = try await store.create(try EntryText(title: "Rain", body: "Rain."), id: UUID()).entry
        #expect(try await store.search("rain", limit: 10).map(\.entry.id) == [titled.id, mention.id])
    }

    @Test("Search follows edits", arguments: StoreBackend.allCases)
    func searchFollowsEdits(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let entry = try await store.create(try EntryText(title: "Old", body: "apples"), id: UUID()).entry
        _ = try await store.update(id: entry.id, to: try EntryText(title: "New", body: "oranges"), expecting: 1)
        #expect(try await store.search("apples", limit: 10).isEmpty)
        #expect(try await store.search("oranges", limit: 10).map(\.entry.id) == [entry.id])
    }

    @Test("An import is all or nothing, and skips entries already there", arguments: StoreBackend.allCases)
    func importSkipsKnownIDs(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let entries = (0..<5).map { Entry(title: "E\($0)", body: "", createdAt: Date(timeIntervalSince1970: Double($0) * 86_400)) }
        #expect(try await store.importEntries(entries) == ImportSummary(imported: 5, skipped: 0))
        #expect(try await store.importEntries(entries) == ImportSummary(imported: 0, skipped: 5))
        #expect(try await store.count() == 5)
    }

    @Test("A short prefix of an id finds it; an unknown one finds nothing", arguments: StoreBackend.allCases)
    func idPrefixes(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let entry = try await store.create(try EntryText(title: "x", body: ""), id: UUID()).entry
        #expect(try await store.ids(startingWith: String(entry.id.diaryString.prefix(6)), limit: 2) == [entry.id])
        #expect(try await store.ids(startingWith: "zz*", limit: 2).isEmpty)
    }

    @Test("Location is kept to two decimals; weather attached later does not change the version", arguments: StoreBackend.allCases)
    func weatherAndLocation(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let location = try #require(Coordinates(latitude: 37.566_535, longitude: 126.977_969))
        let entry = try await store.create(try EntryText(title: "Seoul", body: ""), id: UUID(), location: location).entry
        #expect(entry.location?.latitude == 37.57 && entry.location?.longitude == 126.98)
        #expect(entry.weather == nil)

        let rain = Weather(provider: "open-meteo", condition: .rain, description: "Slight rain", isDay: false, temperatureCelsius: 3.5)
        try await store.attachWeather(rain, to: entry.id)
        let found = try await store.entry(id: entry.id)
        let stored = try #require(found)
        #expect(stored.weather == rain)
        #expect(stored.weather?.icon == "rain-night")
        #expect(stored.version == entry.version)
        #expect(try await store.list(after: nil, limit: 1).entries.first?.weather == rain)
        // The writer's next save is still based on the version they have.
        _ = try await store.update(id: entry.id, to: try EntryText(title: "Seoul", body: "wet"), expecting: entry.version)
    }

    @Test("An export gives every entry in the diary, whole, oldest first", arguments: StoreBackend.allCases)
    func exportBatches(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let entries = (0..<7).map { Entry(title: "E\($0)", body: "body \($0)", createdAt: Date(timeIntervalSince1970: Double($0) * 3_600)) }
        _ = try await store.importEntries(entries)
        var exported: [Entry] = []
        var cursor: EntryCursor?
        repeat {
            let batch = try await store.export(after: cursor, limit: 3)
            exported += batch.entries
            cursor = batch.nextCursor
        } while cursor != nil
        #expect(exported == entries)
    }
}
