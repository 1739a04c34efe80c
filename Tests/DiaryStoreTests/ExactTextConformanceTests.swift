import DiaryCore
import Foundation
import Testing

/// What every store keeps of a writer's words: every byte, whatever the words hold.
@Suite("Every store keeps text exactly")
struct ExactTextConformanceTests {
    /// Texts that a C string, a normalizing comparison or a surrogate-minded reader would change.
    static let awkward: [(title: String, body: String)] = [
        ("a\u{0}b", "before\u{0}after the NUL, serendipity"),
        ("\u{0}", "\u{0}\u{0}"),
        ("bell\u{7}\u{1}\u{1F}\u{7F}\u{0B}\u{0C}", "\u{1B}[31mred\u{1B}[0m and \u{0}tail"),
        ("e\u{301}", "Cafe\u{301} \u{301}\u{301} lone marks"),
        ("𝄞 😀 𠀀", "outside the BMP: 𝄞 😀 𠀀 \u{10FFFF}"),
        ("\u{FEFF}bom", "\u{200B}\u{200D}\u{FFFD}"),
    ]

    @Test("Control characters, NUL, combining marks and astral characters come back byte for byte",
          arguments: StoreBackend.allCases)
    func awkwardText(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        for text in Self.awkward {
            let words = try EntryText(title: text.title, body: text.body)
            let created = try await store.create(words, id: UUID()).entry
            let read = try #require(try await store.entry(id: created.id))
            #expect(Array(read.title.utf8) == Array(text.title.utf8))
            #expect(Array(read.body.utf8) == Array(text.body.utf8))
            let listed = try #require(try await store.list(after: nil, limit: 1).entries.first)
            #expect(Array(listed.title.utf8) == Array(text.title.utf8))
            let exported = try await store.export(after: nil, limit: 100).entries.first { $0.id == created.id }
            #expect(exported.map { Array($0.body.utf8) } == Array(text.body.utf8))
        }
        // What follows a NUL is in the search index too.
        let found = try await store.search("serendipity", limit: 5)
        #expect(found.map { Array($0.entry.title.utf8) } == [Array("a\u{0}b".utf8)])
        #expect(try await store.search("tail", limit: 5).count == 1)
    }

    @Test("An edit that changes only the form of a character (é as one code point, or e and an accent) is stored",
          arguments: StoreBackend.allCases)
    func canonicallyEquivalentEdit(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let created = try await store.create(try EntryText(title: "Caf\u{E9}", body: "r\u{E9}sum\u{E9}"), id: UUID()).entry
        let changed = try await store.update(id: created.id, to: try EntryText(title: "Cafe\u{301}", body: "re\u{301}sume\u{301}"), expecting: 1)
        #expect(changed.version == 2)
        let read = try #require(try await store.entry(id: created.id))
        #expect(Array(read.title.utf8) == Array("Cafe\u{301}".utf8))
        #expect(Array(read.body.utf8) == Array("re\u{301}sume\u{301}".utf8))
    }

    @Test("A body right at 1 MiB is kept whole, with a NUL at its very end", arguments: StoreBackend.allCases)
    func bodyAtTheLimit(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let body = String(repeating: "가", count: (EntryText.maximumBodyBytes - 1) / 3) + "\u{0}"
        #expect(body.utf8.count == EntryText.maximumBodyBytes)
        let created = try await store.create(try EntryText(title: "", body: body), id: UUID()).entry
        let read = try #require(try await store.entry(id: created.id))
        #expect(read.body.utf8.count == EntryText.maximumBodyBytes)
        #expect(read.body.utf8.last == 0)
        #expect(throws: EntryError.bodyTooLong(limitBytes: EntryText.maximumBodyBytes)) {
            try EntryText(title: "", body: body + "\u{0}")
        }
    }

    @Test("An entry at the highest version refuses one more change instead of overflowing", arguments: StoreBackend.allCases)
    func versionsStopAtTheMaximum(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let old = Entry(id: UUID(), title: "Counted far", body: "", createdAt: Date(timeIntervalSince1970: 0),
                        version: Entry.maximumVersion)
        _ = try await store.importEntries([old])
        await #expect(throws: EntryError.versionExhausted) {
            try await store.update(id: old.id, to: try EntryText(title: "One more", body: ""), expecting: nil)
        }
        await #expect(throws: EntryError.versionExhausted) { try await store.moveToTrash(id: old.id) }
        #expect(try await store.entry(id: old.id)?.title == "Counted far")
    }

    @Test("Entries go only into an empty diary when asked, checked as they go in", arguments: StoreBackend.allCases)
    func onlyIntoAnEmptyDiary(backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let sample = (0..<3).map { Entry(title: "Sample \($0)", body: "", createdAt: Date(timeIntervalSince1970: 1_608_651_333)) }
        // Two loads at once: one stores the sample, the other is told the diary is not empty.
        let stored = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    let copy = sample.map { Entry(title: $0.title, body: $0.body, createdAt: $0.createdAt) }
                    do {
                        _ = try await store.importEntries(copy, onlyIntoEmptyDiary: true)
                        return true
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(stored == 1)
        #expect(try await store.count() == 3)
    }
}
