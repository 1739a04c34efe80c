import DiaryCore
@testable import DiaryPostgres
import Foundation
import Logging
import PostgresNIO
import Testing

/// Writes that lock several rows lock them in one order: entries by their keys, then the diary's
/// change count. Another order lets two writes each hold what the other waits for: PostgreSQL
/// then takes a second to find the deadlock and aborts one of them.
@Suite("PostgreSQL writes lock entries before the diary's count", .enabled(if: PostgresForTests.url != nil))
struct PostgresLockOrderTests {
    let logger = Logger(label: "test")

    @Test("A tag rename waiting for an entry another write holds does not hold the diary's count meanwhile")
    func renameLocksEntriesFirst() async throws {
        let url = try PostgresForTests.newDatabase()
        let storage = try await PostgresStorage.open(
            try PostgresAddress(url: url, environment: ProcessInfo.processInfo.environment), logger: logger)
        let diary = storage.diary(of: .localOwner)
        _ = try await diary.create(try EntryText(title: "One", body: ""), id: UUID(), tags: ["trip"])
        let second = try await diary.create(try EntryText(title: "Two", body: ""), id: UUID(), tags: ["trip"])

        // Another writer (as a batch of saves does) holds the second entry, then wants the
        // diary's count.
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let (go, going) = AsyncStream.makeStream(of: Void.self)
        let other = Task { [logger] in
            try await storage.database.transaction { connection in
                try await connection.query(
                    "SELECT 1 FROM entry WHERE id = \(second.id.diaryString) FOR NO KEY UPDATE", logger: logger)
                holding.yield()
                for await _ in go { break }
                // Well under the second PostgreSQL waits before it looks for a deadlock.
                try await connection.query("SET LOCAL lock_timeout = '300ms'", logger: logger)
                do {
                    try await connection.query(
                        "UPDATE diary_change SET count = count WHERE owner_id = \(UserID.localOwner.rawValue)", logger: logger)
                    return true
                } catch {
                    return false
                }
            }
        }
        for await _ in held { break }

        let rename = Task { try await diary.renameTag("trip", to: "여행") }
        // The rename now waits for the second entry.
        let deadline = ContinuousClock.now + .seconds(20)
        while try await waitingForLocks(storage) == 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try await waitingForLocks(storage) == 1, "the rename never waited for the entry held")
        going.yield()

        #expect(try await other.value, "the rename held the diary's count while it waited for an entry: a deadlock with a batch")
        #expect(try await rename.value == 2)
        #expect(try await diary.entry(id: second.id)?.tags == ["여행"])
    }

    /// Statements of this database waiting for a lock.
    private func waitingForLocks(_ storage: PostgresStorage) async throws -> Int64 {
        try await storage.database.read { [logger] connection in
            var waiting: Int64 = 0
            for try await count in try await connection.query("""
                SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                """, logger: logger).decode(Int64.self) {
                waiting = count
            }
            return waiting
        }
    }
}
