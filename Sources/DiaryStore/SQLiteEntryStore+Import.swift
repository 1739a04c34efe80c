import DiaryCore
import Foundation
import GRDB

extension SQLiteEntryStore {
    public func importEntries(_ entries: [Entry]) async throws -> ImportSummary {
        try await write { db in
            var summary = ImportSummary(imported: 0, skipped: 0)
            for entry in entries {
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM entry WHERE id = ?", arguments: [entry.id.diaryString]) == true {
                    summary.skipped += 1
                } else {
                    try EntryRow.insert(entry, db)
                    summary.imported += 1
                }
            }
            return summary
        }
    }
}
