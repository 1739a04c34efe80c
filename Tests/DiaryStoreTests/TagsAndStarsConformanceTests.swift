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
                                           tags: ["travel", "  여행 ", "Travel", "#sea", "Trip  to\tJeju"], starred: true)
        #expect(entry.tags == ["travel", "여행", "sea", "Trip to Jeju"])
        #expect(entry.starred && entry.version == 1)
        #expect(try await store.entry(id: entry.id) == entry)
        let row = try #require(try await store.list(after: nil, limit: 5).entries.first)
        #expect(row.tags == entry.tags && row.starred)
        #expect(try await store.export(after: nil, limit: 5).entries == [entry])
        #expect(try await store.search("sea wild", limit: 5).first?.entry.tags == entry.tags)
        let plain = try await store.create(try EntryText(title: "Plain", body: ""), id: UUID())
        #expect(plain.tags.isEmpty && !plain.starred)
    }

    @Test("A tag already in the diary keeps its first spelling; one only in the trash does not count", arguments: StoreBackend.allCases)
    func firstSpelling(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let first = try await store.create(try EntryText(title: "One", body: ""), id: UUID(), tags: ["Travel", "ＦＯＯＤ"])
        let second = try await store.create(try EntryText(title: "Two", body: ""), id: UUID(), tags: ["TRAVEL", "food", "new"])
        #expect(second.tags == ["Travel", "ＦＯＯＤ", "new"])
        let edited = try await store.edit(id: first.id, try EntryEdit(tags: ["Travel", "NEW"]), expecting: 1)
        #expect(edited.tags == ["Travel", "new"])
        _ = try await store.moveToTrash(id: first.id)
        _ = try await store.moveToTrash(id: second.id)
        let third = try await store.create(try EntryText(title: "Three", body: ""), id: UUID(), tags: ["travel"])
        #expect(third.tags == ["travel"])
    }

    @Test("Tags, the star and the moment are the writer's: each change is a new version, and a stale one conflicts", arguments: StoreBackend.allCases)
    func partOfTheVersion(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let entry = try await store.create(try EntryText(title: "Versioned", body: ""), id: UUID())
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
        let older = try await store.create(try EntryText(title: "Older", body: ""), id: UUID(), at: now.addingTimeInterval(-3600))
        let newer = try await store.create(try EntryText(title: "Written the next morning", body: ""), id: UUID(), at: now)
        #expect(try await store.list(after: nil, limit: 5).entries.map(\.id) == [newer.id, older.id])
        _ = try await store.edit(id: newer.id, try EntryEdit(moment: now.addingTimeInterval(-86_400)), expecting: 1)
        #expect(try await store.list(after: nil, limit: 5).entries.map(\.id) == [older.id, newer.id])
    }

    @Test("Trash and restore keep an entry's tags and star; an import keeps them too", arguments: StoreBackend.allCases)
    func trashAndImport(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let entry = try await store.create(try EntryText(title: "Kept", body: ""), id: UUID(), tags: ["x", "y"], starred: true)
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
        let entry = try await store.create(try EntryText(title: "Safe", body: ""), id: UUID(), tags: ["kept"])
        #expect(throws: EntryError.badTag(position: 2, "it is empty")) { try EntryEdit(tags: ["ok", "  "]) }
        #expect(throws: EntryError.badTag(position: 1, "it is longer than 100 characters")) {
            try EntryEdit(tags: [String(repeating: "가", count: 101)])
        }
        #expect(throws: EntryError.tooManyTags(limit: 50)) { try EntryEdit(tags: (1...51).map { "tag\($0)" }) }
        #expect(throws: EntryError.momentOutOfRange) { try EntryEdit(moment: Date(timeIntervalSince1970: 1e15)) }
        await #expect(throws: EntryError.self) {
            try await store.create(try EntryText(title: "Never", body: ""), id: UUID(), tags: ["a\u{7}b"])
        }
        #expect(try await store.count() == 1)
        #expect(try await store.entry(id: entry.id) == entry)
        // Fifty tags of a hundred characters each are fine.
        let most = (10...59).map { String(repeating: "태", count: 98) + String($0) }
        let full = try await store.edit(id: entry.id, try EntryEdit(tags: most), expecting: 1)
        #expect(try await store.entry(id: entry.id)?.tags == most && full.tags == most)
    }
}
