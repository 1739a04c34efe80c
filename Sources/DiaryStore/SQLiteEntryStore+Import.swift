import DiaryCore
import Foundation
import GRDB

extension SQLiteEntryStore {
    public func importEntries(_ entries: [Entry]) async throws -> ImportSummary {
        try await write { [owner] db in
            var summary = ImportSummary(imported: 0, skipped: 0)
            for entry in entries {
                if try EntryRow.exists(db, id: entry.id) {
                    summary.skipped += 1
                } else {
                    try EntryRow.insert(entry, owner: owner, db)
                    summary.imported += 1
                }
            }
            if summary.imported > 0 { try ChangeCount.moved(owner, db) }
            return summary
        }
    }
}
