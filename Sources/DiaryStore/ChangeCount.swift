import DiaryCore
import GRDB

/// Each diary's change count (`EntryRows.changeCount`): one row per owner in `diary_change`,
/// moved by every write of its entries, in that write's transaction. Like the search index, it
/// is kept by the code that writes entries (`SQLiteEntryRows`, the adoption of the local diary).
enum ChangeCount {
    static func read(of owner: UserID, _ db: Database) throws -> Int64 {
        try db.cachedStatement(sql: "SELECT count FROM diary_change WHERE owner_id = ?")
            .readFirstRow([.integer(owner.rawValue)]) { $0.integer(0) } ?? 0
    }

    /// Counts one change of `owner`'s diary. An UPDATE, then an INSERT the first time: an
    /// upsert would open a statement journal, and with it flush FTS5's pending tokens.
    static func moved(_ owner: UserID, _ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE diary_change SET count = count + 1 WHERE owner_id = ?")
            .execute(arguments: [owner.rawValue])
        if db.changesCount == 0 {
            try db.cachedStatement(sql: "INSERT INTO diary_change (owner_id, count) VALUES (?, 1)")
                .execute(arguments: [owner.rawValue])
        }
    }
}
