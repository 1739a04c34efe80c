import DiaryCore
@testable import DiaryPostgres
import Foundation
import Logging
import Testing

/// A running instance merges the search index's new words itself, in the background, so that
/// no save has to (`SearchIndexUpkeep`).
@Suite("The search index's new words are merged in the background", .enabled(if: PostgresForTests.url != nil))
struct SearchIndexUpkeepTests {
    @Test("Words written are moved out of the pending list soon after, and stay findable")
    func merged() async throws {
        let url = try PostgresForTests.newDatabase()
        let storage = try await PostgresStorage.open(
            try PostgresAddress(url: url, environment: ProcessInfo.processInfo.environment), logger: Logger(label: "test"))
        let running = Task { await storage.maintain() }
        defer { running.cancel() }
        let diary = storage.diary(of: .localOwner)
        // Some 200 KB of words and prefixes: tens of the pending list's pages, far under the
        // 4 MB at which PostgreSQL would merge them inside a write.
        for n in 0..<200 {
            let words = (0..<40).map { "word\(n)x\($0)" }.joined(separator: " ")
            _ = try await diary.create(try EntryText(title: "Day \(n)", body: "rain and \(words)"), id: UUID())
        }
        // A merge begun after the last write, and words moved.
        let upkeep = storage.database.searchIndexUpkeep
        let written = storage.database.feed.writesHere.load(ordering: .relaxed)
        let deadline = ContinuousClock.now + .seconds(20)
        while upkeep.mergedAfter.load(ordering: .relaxed) < written && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(upkeep.mergedAfter.load(ordering: .relaxed) == written, "no merge in the background after the last write")
        #expect(upkeep.pages.load(ordering: .relaxed) > 0)
        // Nothing left to merge: a merge asked for now moves no page.
        let left = try await storage.database.read { connection in
            var pages: Int64 = -1
            for try await found in try await connection.query(
                "SELECT gin_clean_pending_list('entry_words'::regclass)", logger: Logger(label: "test")).decode(Int64.self) {
                pages = found
            }
            return pages
        }
        #expect(left == 0)
        // The words are found where they now are, in the index proper.
        #expect(try await diary.search("word150x7", limit: 5).map(\.entry.title) == ["Day 150"])
        #expect(try await diary.search("rain", limit: 300).count == 200)
    }
}
