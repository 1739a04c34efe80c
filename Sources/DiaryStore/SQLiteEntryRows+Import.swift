import DiaryCore
import Foundation
import GRDB

extension SQLiteEntryRows {
    /// An import this large ends by merging the search index into one segment (about 2 s for
    /// 100,000 entries). A bulk insert leaves FTS5 many segments, and each later write did a
    /// share of merging them: the first seconds of autosaves on a freshly imported diary had a
    /// p99 of 170 ms instead of 25 ms.
    static let bulkImport = 1_000

    public func insert(_ entries: [Entry], onlyIntoEmptyDiary: Bool) async throws -> ImportSummary {
        try await write { [owner, index] db in
            // Checked in the import's own transaction: two loads of the sample at once store it once.
            if onlyIntoEmptyDiary, try db.cachedStatement(sql: "SELECT 1 FROM entry WHERE owner_id = ? AND deleted_at IS NULL LIMIT 1")
                .readFirstRow([.integer(owner.rawValue)], { _ in true }) == true {
                throw EntryError.diaryNotEmpty
            }
            var summary = ImportSummary(imported: 0, skipped: 0)
            for entry in entries {
                if try SQLiteEntryRow.exists(db, id: entry.id, owner: owner) {
                    summary.skipped += 1
                } else {
                    try SQLiteEntryRow.insert(entry, owner: owner, index: index, db)
                    summary.imported += 1
                }
            }
            if summary.imported > 0 { try ChangeCount.moved(owner, db) }
            if summary.imported >= Self.bulkImport {
                try index.apply(db)  // the index is merged after all its rows are in
                try db.execute(sql: "INSERT INTO entry_search (entry_search) VALUES ('optimize')")
            }
            return summary
        }
    }
}
