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

    @Test("A tag rename locks its entries in key order, and waits for one held without holding the diary's count")
    func renameLocksEntriesFirst() async throws {
        let url = try PostgresForTests.newDatabase()
        let storage = try await PostgresStorage.open(
            try PostgresAddress(url: url, environment: ProcessInfo.processInfo.environment), logger: logger)
        let diary = storage.diary(of: .localOwner)
        var made: [Entry] = []
        for title in ["One", "Two", "Three"] {
            made.append(try await diary.create(try EntryText(title: title, body: ""), id: UUID(), tags: ["trip"]).entry)
        }
        let (middle, last) = (made[1], made[2])

        // Another writer holds the middle entry, as a batch of saves does, and then tries, without
        // waiting, what a rename locking in the right order does not hold yet: the last entry,
        // and the diary's count. (A real batch would wait for them; waiting, it would deadlock.)
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let (go, going) = AsyncStream.makeStream(of: Void.self)
        let other = Task { [logger] in
            defer { holding.finish() }
            return try await storage.database.withTransaction { connection in
                try await connection.query(
                    "SELECT 1 FROM entry WHERE id = \(middle.id.diaryString) FOR NO KEY UPDATE", logger: logger)
                holding.yield()
                for await _ in go { break }
                let lastEntry = try await Self.free(
                    "SELECT 1 FROM entry WHERE id = \(last.id.diaryString) FOR NO KEY UPDATE NOWAIT", connection, logger)
                let count = try await Self.free(
                    "SELECT 1 FROM diary_change WHERE owner_id = \(UserID.localOwner.rawValue) FOR NO KEY UPDATE NOWAIT", connection, logger)
                return (lastEntry, count)
            }
        }
        for await _ in held { break }

        let rename = Task { try await diary.renameTag("trip", to: "여행") }
        // The rename now waits for the middle entry.
        let deadline = ContinuousClock.now + .seconds(20)
        while try await waitingForLocks(storage) == 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try await waitingForLocks(storage) == 1, "the rename never waited for the entry held")
        going.yield()

        let (lastEntry, count) = try await other.value
        #expect(lastEntry, "the rename locked an entry after the one it waits for: not in key order")
        #expect(count, "the rename held the diary's count while it waited for an entry: a deadlock with a batch")
        #expect(try await rename.value == 3)
        #expect(try await diary.entry(id: middle.id)?.tags == ["여행"])
    }

    /// Whether `sql`, a lock taken without waiting (`NOWAIT`), found the row free; in a
    /// savepoint, so that a row found held leaves the transaction usable.
    private static func free(_ sql: PostgresQuery, _ connection: PostgresConnection, _ logger: Logger) async throws -> Bool {
        try await connection.query("SAVEPOINT try_lock", logger: logger)
        do {
            for try await _ in try await connection.query(sql, logger: logger) {}  // its error comes with its rows
            try await connection.query("RELEASE SAVEPOINT try_lock", logger: logger)
            return true
        } catch where PostgresFailure.state(of: error) == "55P03" {  // lock_not_available
            try await connection.query("ROLLBACK TO SAVEPOINT try_lock", logger: logger)
            return false
        }
    }

    /// Statements of this database waiting for a lock.
    private func waitingForLocks(_ storage: PostgresStorage) async throws -> Int64 {
        try await storage.database.withConnection { [logger] connection in
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
