import DiaryCore
import Foundation
import Logging
import PostgresNIO

/// Diary's storage in a PostgreSQL database, for a family, a club or a host: any number of
/// `diary serve` instances in front of one database. The same protocols as SQLite's, the same
/// conformance suites; everything an instance needs to agree with the others is in the database.
public struct PostgresStorage: Storage {
    /// Its pool of connections works from `open` on (a server asks before it serves) and is
    /// closed when `maintain()` is cancelled (a server's `ServiceGroup` shutting down, after
    /// the HTTP server), or when the process ends.
    let database: PostgresDatabase

    /// Connects to `address`, brings the schema up to date (under an advisory lock: several
    /// instances starting at once migrate once), and starts the pool.
    public static func open(_ address: PostgresAddress, logger: Logger) async throws -> PostgresStorage {
        let database = try PostgresDatabase(address: address, logger: logger)
        let connection: PostgresConnection
        do {
            connection = try await database.connect()
        } catch {
            database.pool.close()
            throw error
        }
        do {
            try await PostgresMigrations.migrate(connection, logger: logger)
        } catch {
            try? await connection.close()
            database.pool.close()
            throw PostgresFailure.translating(error, at: address)
        }
        try? await connection.close()
        return PostgresStorage(database: database)
    }

    public func entryRows(of owner: UserID) -> any EntryRows {
        PostgresEntryRows(database: database, owner: owner)
    }

    public func photoRows(of owner: UserID) -> any PhotoRows {
        PostgresPhotoRows(database: database, owner: owner)
    }

    public var accountRows: any AccountRows {
        PostgresAccountRows(database: database)
    }

    /// Keeps the pool of connections, listens to PostgreSQL's notifications (`ChangeFeed`) and
    /// merges the search index's new words (`SearchIndexUpkeep`), until the task is cancelled;
    /// then closes them.
    public func maintain() async {
        await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { [database] group in
                group.addTask { await database.feed.run() }
                group.addTask { await database.searchIndexUpkeep.run(database) }
                await database.pool.untilClosed()
                database.feed.stop()
                group.cancelAll()
            }
        } onCancel: { [pool = database.pool, feed = database.feed] in
            pool.close()
            feed.stop()
        }
    }

    public func emptyTrashes(deletedBefore moment: Date) async throws -> Int {
        try await database.withConnection { [database] connection in
            let rows = try await connection.query(
                "SELECT DISTINCT owner_id FROM entry WHERE deleted_at < \(moment.millisecondsSince1970)", logger: database.logger)
            var owners: [Int64] = []
            for try await owner in rows.decode(Int64.self) { owners.append(owner) }
            var deleted = 0
            for owner in owners {
                deleted += try await PostgresEntryRows.emptyTrash(of: UserID(rawValue: owner), deletedBefore: moment, database.feed,
                                                                  connection, database.logger)
            }
            try await Self.removeUnusedPhotos(connection, database.logger)
            return deleted
        }
    }

    /// The photos of every diary that no entry holds, stored before `DiaryPhotos.unusedGrace`,
    /// each diary's in its own transaction.
    private static func removeUnusedPhotos(_ connection: PostgresConnection, _ logger: Logger) async throws {
        let before = Date().addingTimeInterval(-DiaryPhotos.unusedGrace)
        var owners: [Int64] = []
        for try await owner in try await connection.query("""
            SELECT DISTINCT owner_id FROM photo WHERE stored_at < \(before.millisecondsSince1970)
            """, logger: logger).decode(Int64.self) { owners.append(owner) }
        for owner in owners {
            // postgres-nio's transaction; its error is unwrapped by `withConnection` around this.
            _ = try await connection.withTransaction(logger: logger) { connection in
                try await PostgresPhotoRows.removeUnused(of: UserID(rawValue: owner), storedBefore: before, connection, logger)
            }
        }
    }

    public var location: String { database.address.description }
}
