import DiaryCore
@testable import DiaryPostgres
import Foundation
import Logging
import Synchronization
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
            _ = try await diary.create(try EntryText(title: "Day \(n)", body: "rain and \(words)"), id: UUID()).entry
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
        let left = try await storage.database.withConnection { connection in
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

    @Test("A user who does not own the index is told once, and stops asking; its saves are found as before")
    func notTheOwner() async throws {
        let url = try PostgresForTests.newDatabase()
        let environment = ProcessInfo.processInfo.environment
        // The tables made by their owner (the migrations), then used by a user with rights to
        // read and write them only, as an operator may set it up (docs/postgresql-and-proxies.md, Search).
        _ = try await PostgresStorage.open(try PostgresAddress(url: url, environment: environment), logger: Logger(label: "test"))
        let role = "writer_" + UUID().diaryString.replacingOccurrences(of: "-", with: "").prefix(12)
        let password = UUID().diaryString
        try PostgresForTests.psql(url, """
            CREATE ROLE \(role) LOGIN PASSWORD '\(password)';
            GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(role);
            GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO \(role)
            """)
        // Roles are the cluster's, not the database's: this one goes with the test.
        defer { try? PostgresForTests.psql(url, "DROP OWNED BY \(role); DROP ROLE \(role)") }
        let told = Told()
        let logger = Logger(label: "test") { _ in told }
        var writer = try #require(URLComponents(string: url))
        writer.user = String(role)
        let writerURL = try #require(writer.string)
        let storage = try await PostgresStorage.open(
            try PostgresAddress(url: writerURL, environment: environment.merging(["PGPASSWORD": password]) { $1 }), logger: logger)
        let diary = storage.diary(of: .localOwner)
        _ = try await diary.create(try EntryText(title: "Rain", body: "a walk in the rain"), id: UUID()).entry

        // It returns, rather than asking every interval for ever (the test's time limit).
        let upkeep = SearchIndexUpkeep(interval: .milliseconds(10))
        let stopped = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { await upkeep.run(storage.database); return !Task.isCancelled }
            group.addTask { try await Task.sleep(for: .seconds(20)); return false }
            let first = try await group.next()!
            group.cancelAll()
            return first
        }
        #expect(stopped, "the upkeep kept asking for a merge it may not run")
        #expect(upkeep.mergedAfter.load(ordering: .relaxed) == 0)
        #expect(told.lines.filter { $0.contains("does not own the index entry_words") }.count == 1, "\(told.lines)")
        #expect(try await diary.search("rain", limit: 5).map(\.entry.title) == ["Rain"])
    }
}

/// A log that keeps its lines, for a test to read.
private final class Told: LogHandler, Sendable {
    private let kept = Mutex<[String]>([])
    var lines: [String] { kept.withLock { $0 } }

    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        kept.withLock { $0.append("\(event.level) \(event.message)") }
    }
}
