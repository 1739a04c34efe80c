import DiaryCore
import Foundation

/// Diary's storage in one SQLite file (see `SQLiteDatabase`): the embedded default.
public struct SQLiteStorage: Storage {
    public let database: SQLiteDatabase

    public init(database: SQLiteDatabase) {
        self.database = database
    }

    /// Opens (or creates) the diary file at `path` (see `SQLiteDatabase.init(path:checkpoints:)`).
    public init(path: String, checkpoints: SQLiteDatabase.Checkpoints = .inline) throws {
        self.init(database: try SQLiteDatabase(path: path, checkpoints: checkpoints))
    }

    public func entryRows(of owner: UserID) -> any EntryRows {
        SQLiteEntryRows(database: database, owner: owner)
    }

    public func photoRows(of owner: UserID) -> any PhotoRows {
        SQLitePhotoRows(database: database, owner: owner)
    }

    public var accountRows: any AccountRows {
        SQLiteAccountRows(database: database)
    }

    /// The background checkpoints of a file opened with `checkpoints: .background` (a server's);
    /// with SQLite's own checkpoints there is nothing to do.
    public func maintain() async {
        guard database.checkpoints == .background else { return }
        await database.backgroundCheckpoints().run()
    }

    public func emptyTrashes(deletedBefore moment: Date) async throws -> Int {
        let index = database.searchIndex
        return try await database.write { db in
            let owners = try Int64.fetchAll(db, sql: "SELECT DISTINCT owner_id FROM entry WHERE deleted_at < ?",
                                            arguments: [moment.millisecondsSince1970])
            let deleted = try owners.reduce(0) { deleted, owner in
                deleted + (try SQLiteEntryRows.emptyTrash(of: UserID(rawValue: owner), deletedBefore: moment, index: index, db))
            }
            let unusedBefore = Date().addingTimeInterval(-DiaryPhotos.unusedGrace)
            for owner in try Int64.fetchAll(db, sql: "SELECT DISTINCT owner_id FROM photo WHERE stored_at < ?",
                                            arguments: [unusedBefore.millisecondsSince1970]) {
                _ = try SQLitePhotoRows.removeUnused(of: UserID(rawValue: owner), storedBefore: unusedBefore, db)
            }
            return deleted
        }
    }

    public var location: String { database.path }
}

extension SQLiteDatabase {
    /// One user's diary in this file, with its rules.
    public func diary(of owner: UserID) -> Diary {
        Diary(rows: entries(of: owner), photos: SQLitePhotoRows(database: self, owner: owner))
    }
}
