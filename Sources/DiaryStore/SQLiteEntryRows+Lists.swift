import DiaryCore
import Foundation
import GRDB

extension SQLiteEntryRows {
    /// A list row needs only the start of the body: its first line that is not blank, at most
    /// `Excerpt.maximumLength` characters. Leading blank lines go in SQL, so 1,600 bytes hold
    /// that line (unless lines of only non-ASCII spaces come first), and the rest of the body is
    /// never made a Swift string. Cut as bytes (a BLOB): SQLite's `substr` of text stops at a NUL.
    private static let summaryColumns =
        "seq, id, title, substr(CAST(ltrim(body, char(32, 9, 10, 13)) AS BLOB), 1, 1600) AS head, created_at, updated_at, version, deleted_at, "
        + EntryRow.laterColumns

    public func list(after cursor: EntryCursor?, limit: Int) async throws -> EntryPage {
        // Row-value comparison walks the partial index from the cursor on: no OFFSET scan.
        let sql = """
            SELECT \(Self.summaryColumns) FROM entry
            WHERE owner_id = ? AND deleted_at IS NULL AND (created_at, seq) < (?, \(Self.cursorSequence))
            ORDER BY created_at DESC, seq DESC LIMIT ?
            """
        return try await page(sql: sql, cursor: cursor, limit: limit, time: \.createdAt)
    }

    public func trash(after cursor: EntryCursor?, limit: Int) async throws -> EntryPage {
        let sql = """
            SELECT \(Self.summaryColumns) FROM entry
            WHERE owner_id = ? AND deleted_at IS NOT NULL AND (deleted_at, seq) < (?, \(Self.cursorSequence))
            ORDER BY deleted_at DESC, seq DESC LIMIT ?
            """
        return try await page(sql: sql, cursor: cursor, limit: limit, time: { $0.deletedAt ?? $0.createdAt })
    }

    /// Where the cursor's entry stands among rows of its time: its `seq`, looked up in the
    /// owner's diary (arguments: owner, the entry's id, and the value to use when there is none,
    /// before the first page or when that entry has gone since: then rows of the same
    /// millisecond may be shown again rather than skipped).
    static let cursorSequence = "COALESCE((SELECT seq FROM entry WHERE owner_id = ? AND id = ?), ?)"

    private func page(
        sql: String, cursor: EntryCursor?, limit: Int, time: @escaping @Sendable (EntrySummary) -> Date
    ) async throws -> EntryPage {
        let limit = min(max(limit, 1), Diary.largestPage)
        let start = cursor ?? EntryCursor(time: .max, entry: nil)
        return try await database.readStatement { [owner] db in
            let statement = try db.cachedStatement(sql: sql)
            let rows = try Row.fetchCursor(statement, arguments: [owner.rawValue, start.time, owner.rawValue, start.entry?.diaryString,
                                                                  Int64.max, limit + 1])
            let (summaries, last) = try Self.readPage(rows, limit: limit, Self.summary)
            let next = last.map { EntryCursor(time: time($0).millisecondsSince1970, entry: $0.id) }
            return EntryPage(entries: summaries, nextCursor: next)
        }
    }

    /// Up to `limit` rows made into items as they are read (no copy of each row first), and,
    /// when one more row follows, the last item: where the next page starts.
    static func readPage<Item>(
        _ rows: RowCursor, limit: Int, _ item: (Row) -> Item
    ) throws -> (items: [Item], last: Item?) {
        var items: [Item] = []
        items.reserveCapacity(limit)
        while let row = try rows.next() {
            // One row more than asked tells whether another page follows.
            if items.count == limit { return (items, items.last) }
            items.append(item(row))
        }
        return (items, nil)
    }

    /// A list row from `summaryColumns`, read by position (see `EntryRow.Column`).
    static func summary(_ row: Row) -> EntrySummary {
        typealias Column = EntryRow.Column
        return EntrySummary(
            id: UUID(diaryString: row[Column.id]) ?? UUID(),
            title: row.text(Column.title),
            excerpt: Excerpt.of(row.text(Column.body)),
            createdAt: Date(millisecondsSince1970: row[Column.createdAt]),
            updatedAt: Date(millisecondsSince1970: row[Column.updatedAt]),
            version: row[Column.version],
            deletedAt: (row[Column.deletedAt] as Int64?).map(Date.init(millisecondsSince1970:)),
            weather: EntryRow.weather(row),
            tags: EntryRow.tags(row),
            starred: (row[Column.starred] as Int64) != 0)
    }
}

extension SQLiteEntryRows {
    public func export(after cursor: EntryCursor?, limit: Int) async throws -> EntryBatch {
        let limit = min(max(limit, 1), Diary.largestPage)
        let start = cursor ?? EntryCursor(time: .min, entry: nil)
        return try await read { [owner] db in
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: """
                    SELECT \(EntryRow.columns) FROM entry
                    WHERE owner_id = ? AND deleted_at IS NULL AND (created_at, seq) > (?, \(Self.cursorSequence))
                    ORDER BY created_at, seq LIMIT ?
                    """),
                arguments: [owner.rawValue, start.time, owner.rawValue, start.entry?.diaryString, Int64.min, limit + 1])
            let (entries, last) = try Self.readPage(rows, limit: limit) { EntryRow($0).entry }
            let next = last.map { EntryCursor(time: $0.createdAt.millisecondsSince1970, entry: $0.id) }
            return EntryBatch(entries: entries, nextCursor: next)
        }
    }
}
