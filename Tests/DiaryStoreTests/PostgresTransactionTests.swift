import DiaryCore
@testable import DiaryPostgres
import Foundation
import Logging
import PostgresNIO
import Testing

/// `PostgresDatabase.withTransaction`, postgres-nio's transaction behind the pool made anew:
/// all or nothing, whether its work returns, throws or is cancelled, and at the isolation asked.
@Suite("PostgreSQL transactions", .enabled(if: PostgresForTests.url != nil))
struct PostgresTransactionTests {
    let logger = Logger(label: "test")

    struct Refused: Error, Equatable {}

    /// A database of its own with an empty table of notes.
    private func storage() async throws -> PostgresStorage {
        let url = try PostgresForTests.newDatabase()
        let storage = try await PostgresStorage.open(
            try PostgresAddress(url: url, environment: ProcessInfo.processInfo.environment), logger: logger)
        try await storage.database.withConnection { [logger] connection in
            try await connection.query("CREATE TABLE note (words text NOT NULL)", logger: logger)
        }
        return storage
    }

    private func notes(_ storage: PostgresStorage) async throws -> Int64 {
        try await storage.database.withConnection { [logger] connection in
            var count: Int64 = 0
            for try await found in try await connection.query("SELECT count(*) FROM note", logger: logger).decode(Int64.self) {
                count = found
            }
            return count
        }
    }

    /// Connections of this database left inside a transaction.
    private func idleInTransaction(_ storage: PostgresStorage) async throws -> Int64 {
        try await storage.database.withConnection { [logger] connection in
            var count: Int64 = 0
            for try await found in try await connection.query("""
                SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'
                """, logger: logger).decode(Int64.self) { count = found }
            return count
        }
    }

    @Test("Work that returns is committed, and its result comes back")
    func committed() async throws {
        let storage = try await storage()
        let result = try await storage.database.withTransaction { [logger] connection in
            try await connection.query("INSERT INTO note VALUES ('kept'), ('kept too')", logger: logger)
            return "done"
        }
        #expect(result == "done")
        #expect(try await notes(storage) == 2)
    }

    @Test("Work that throws is rolled back, and its own error comes out unchanged")
    func rolledBackOnError() async throws {
        let storage = try await storage()
        await #expect(throws: Refused()) {
            try await storage.database.withTransaction { [logger] connection in
                try await connection.query("INSERT INTO note VALUES ('not kept')", logger: logger)
                throw Refused()
            }
        }
        #expect(try await notes(storage) == 0)
        #expect(try await idleInTransaction(storage) == 0)
    }

    @Test("A statement PostgreSQL refuses rolls the transaction back, in the diary's words")
    func rolledBackOnServerError() async throws {
        let storage = try await storage()
        let error = await #expect(throws: (any Error).self) {
            try await storage.database.withTransaction { [logger] connection in
                try await connection.query("INSERT INTO note VALUES ('not kept')", logger: logger)
                try await connection.query("INSERT INTO note VALUES (NULL)", logger: logger)  // not null
            }
        }
        #expect(PostgresFailure.state(of: error!) == "23502", "postgres-nio's transaction error was not unwrapped: \(String(reflecting: error))")
        #expect(try await notes(storage) == 0)
    }

    @Test("Work cancelled halfway is rolled back, and its connection is left outside any transaction")
    func rolledBackOnCancellation() async throws {
        let storage = try await storage()
        let (started, starting) = AsyncStream.makeStream(of: Void.self)
        let work = Task { [logger] in
            try await storage.database.withTransaction { connection in
                try await connection.query("INSERT INTO note VALUES ('cancelled')", logger: logger)
                starting.yield()
                try await Task.sleep(for: .seconds(60))
            }
        }
        for await _ in started { break }
        work.cancel()
        await #expect(throws: CancellationError.self) { try await work.value }
        #expect(try await notes(storage) == 0)
        #expect(try await idleInTransaction(storage) == 0)
    }

    @Test("A snapshot sees one moment of the database, whatever is committed meanwhile, and writes nothing")
    func snapshot() async throws {
        let storage = try await storage()
        let (before, after) = try await storage.database.withTransaction(isolation: .snapshot) { [logger, database = storage.database] connection in
            func count() async throws -> Int64 {
                var count: Int64 = 0
                for try await found in try await connection.query("SELECT count(*) FROM note", logger: logger).decode(Int64.self) {
                    count = found
                }
                return count
            }
            let before = try await count()
            try await database.withConnection { other in
                try await other.query("INSERT INTO note VALUES ('meanwhile')", logger: logger)
            }
            return (before, try await count())
        }
        #expect(before == 0)
        #expect(after == 0, "the snapshot saw a row committed after it began: not REPEATABLE READ")
        #expect(try await notes(storage) == 1)

        let refused = await #expect(throws: PostgresFailure.self) {
            try await storage.database.withTransaction(isolation: .snapshot) { [logger] connection in
                try await connection.query("INSERT INTO note VALUES ('in a read-only transaction')", logger: logger)
            }
        }
        #expect(refused?.kind == .readOnly)
        #expect(try await notes(storage) == 1)
    }

    @Test("Each isolation begins its transaction as it says")
    func isolations() async throws {
        let storage = try await storage()
        let cases: [(TransactionIsolation, String, String)] = [
            (.readCommitted, "read committed", "off"),
            (TransactionIsolation(.readCommitted, readOnly: true), "read committed", "on"),
            (TransactionIsolation(.repeatableRead), "repeatable read", "off"),
            (.snapshot, "repeatable read", "on"),
            (TransactionIsolation(.serializable), "serializable", "off"),
            (TransactionIsolation(.serializable, readOnly: true), "serializable", "on"),
        ]
        for (isolation, level, readOnly) in cases {
            let found = try await storage.database.withTransaction(isolation: isolation) { [logger] connection in
                var found: (String, String) = ("", "")
                for try await row in try await connection.query(
                    "SELECT current_setting('transaction_isolation'), current_setting('transaction_read_only')", logger: logger
                ).decode((String, String).self) { found = row }
                return found
            }
            #expect(found.0 == level && found.1 == readOnly, "\(isolation)")
        }
    }
}
