import DiaryCore
import Foundation
import GRDB

extension SQLiteEntryStore {
    /// A list row needs only the start of the body; long bodies stay on disk.
    private static let summaryColumns =
        "seq, id, title, substr(body, 1, 1000) AS head, created_at, updated_at, version, deleted_at, " + EntryRow.weatherColumns

    public func list(after cursor: EntryCursor?, limit: Int) async throws -> EntryPage {
        // Row-value comparison walks the partial index from the cursor on: no OFFSET scan.
        let sql = """
            SELECT \(Self.summaryColumns) FROM entry
            WHERE owner_id = ? AND deleted_at IS NULL AND (created_at, seq) < (?, ?)
            ORDER BY created_at DESC, seq DESC LIMIT ?
            """
        return try await page(sql: sql, cursor: cursor, limit: limit, time: \.createdAt)
    }

    public func trash(after cursor: EntryCursor?, limit: Int) async throws -> EntryPage {
        let sql = """
            SELECT \(Self.summaryColumns) FROM entry
            WHERE owner_id = ? AND deleted_at IS NOT NULL AND (deleted_at, seq) < (?, ?)
            ORDER BY deleted_at DESC, seq DESC LIMIT ?
            """
        return try await page(sql: sql, cursor: cursor, limit: limit, time: { $0.deletedAt ?? $0.createdAt })
    }

    private func page(
        sql: String, cursor: EntryCursor?, limit: Int, time: @escaping @Sendable (EntrySummary) -> Date
    ) async throws -> EntryPage {
        let start = cursor ?? EntryCursor(time: .max, sequence: .max)
        return try await read { [owner] db in
            // One row more than asked tells whether another page follows.
            let rows = try Row.fetchAll(db, sql: sql, arguments: [owner.rawValue, start.time, start.sequence, limit + 1])
            let summaries = rows.prefix(limit).map { row in (row["seq"] as Int64, Self.summary(row)) }
            var next: EntryCursor?
            if rows.count > limit, let last = summaries.last {
                next = EntryCursor(time: time(last.1).millisecondsSince1970, sequence: last.0)
            }
            return EntryPage(entries: summaries.map(\.1), nextCursor: next)
        }
    }

    static func summary(_ row: Row) -> EntrySummary {
        EntrySummary(
            id: UUID(uuidString: row["id"]) ?? UUID(),
            title: row["title"],
            excerpt: Excerpt.of(row["head"] as String),
            createdAt: Date(millisecondsSince1970: row["created_at"]),
            updatedAt: Date(millisecondsSince1970: row["updated_at"]),
            version: row["version"],
            deletedAt: (row["deleted_at"] as Int64?).map(Date.init(millisecondsSince1970:)),
            weather: EntryRow.weather(row))
    }
}

extension SQLiteEntryStore {
    public func export(after cursor: EntryCursor?, limit: Int) async throws -> EntryBatch {
        let start = cursor ?? EntryCursor(time: .min, sequence: .min)
        return try await read { [owner] db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(EntryRow.columns) FROM entry
                    WHERE owner_id = ? AND deleted_at IS NULL AND (created_at, seq) > (?, ?)
                    ORDER BY created_at, seq LIMIT ?
                    """,
                arguments: [owner.rawValue, start.time, start.sequence, limit + 1])
            let batch = rows.prefix(limit).map(EntryRow.init)
            var next: EntryCursor?
            if rows.count > limit, let last = batch.last {
                next = EntryCursor(time: last.entry.createdAt.millisecondsSince1970, sequence: last.sequence)
            }
            return EntryBatch(entries: batch.map(\.entry), nextCursor: next)
        }
    }
}
