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
        + SQLiteEntryRow.laterColumns

    public func list(after cursor: EntryCursor?, limit: Int, filter: EntryFilter) async throws -> EntryPage {
        guard !filter.isEmpty else {
            // Row-value comparison walks the partial index from the cursor on: no OFFSET scan.
            let sql = """
                SELECT \(Self.summaryColumns) FROM entry
                WHERE owner_id = ? AND deleted_at IS NULL AND (created_at, seq) < (?, \(Self.cursorSequence))
                ORDER BY created_at DESC, seq DESC LIMIT ?
                """
            return try await page(sql: sql, cursor: cursor, limit: limit, time: \.createdAt)
        }
        return try await filteredPage(after: cursor, limit: limit, filter: filter)
    }

    /// A page of the entries `filter` lets through. With tags, the first tag's own index
    /// (`entry_tag`: its entries by moment) is walked from the cursor on, each row kept if the
    /// entry has the other tags (and its star); else the diary's index (or the starred entries'
    /// own). Either way the dates bound the walk, and a page reads about as many rows as it shows
    /// when most entries pass.
    private func filteredPage(after cursor: EntryCursor?, limit: Int, filter: EntryFilter) async throws -> EntryPage {
        let limit = min(max(limit, 1), Diary.largestPage)
        let start = cursor ?? EntryCursor(time: .max, entry: nil)
        let starred = filter.starredOnly ? " AND starred = 1" : ""
        var arguments: [(any DatabaseValueConvertible)?]
        let sql: String
        if let first = filter.tagKeys.first {
            let others = filter.tagKeys.dropFirst()
            let alsoTagged = others.map { _ in " AND EXISTS (SELECT 1 FROM entry_tag o WHERE o.seq = t.seq AND o.tag_key = ?)" }.joined()
            let starredJoin = filter.starredOnly ? " JOIN entry s ON s.seq = t.seq AND s.starred = 1" : ""
            sql = """
                SELECT \(Self.summaryColumns) FROM entry WHERE seq IN (
                    SELECT t.seq FROM entry_tag t\(starredJoin)
                    WHERE t.owner_id = ? AND t.tag_key = ? AND t.created_at >= ? AND t.created_at < ?
                        AND (t.created_at, t.seq) < (?, \(Self.cursorSequence))\(alsoTagged)
                    ORDER BY t.created_at DESC, t.seq DESC LIMIT ?)
                ORDER BY created_at DESC, seq DESC
                """
            arguments = [owner.rawValue, first, filter.from, filter.until, start.time, owner.rawValue, start.entry?.diaryString, Int64.max]
            arguments += others.map { $0 }
        } else {
            sql = """
                SELECT \(Self.summaryColumns) FROM entry
                WHERE owner_id = ? AND deleted_at IS NULL\(starred) AND created_at >= ? AND created_at < ?
                    AND (created_at, seq) < (?, \(Self.cursorSequence))
                ORDER BY created_at DESC, seq DESC LIMIT ?
                """
            arguments = [owner.rawValue, filter.from, filter.until, start.time, owner.rawValue, start.entry?.diaryString, Int64.max]
        }
        arguments.append(limit + 1)
        let bound = StatementArguments(arguments)
        return try await database.readStatement { db in
            // A few shapes of statement (starred or not, one to ten tags): each is kept once.
            let rows = try Row.fetchCursor(try db.cachedStatement(sql: sql), arguments: bound)
            let (summaries, last) = try Self.readPage(rows, limit: limit, Self.summary)
            let next = last.map { EntryCursor(time: $0.createdAt.millisecondsSince1970, entry: $0.id) }
            return EntryPage(entries: summaries, nextCursor: next)
        }
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

    /// A list row from `summaryColumns`, read by position (see `SQLiteEntryRow.Column`).
    static func summary(_ row: Row) -> EntrySummary {
        typealias Column = SQLiteEntryRow.Column
        return EntrySummary(
            id: UUID(diaryString: row[Column.id]) ?? UUID(),
            title: row.text(Column.title),
            excerpt: Excerpt.of(row.text(Column.body)),
            createdAt: Date(millisecondsSince1970: row[Column.createdAt]),
            updatedAt: Date(millisecondsSince1970: row[Column.updatedAt]),
            version: row[Column.version],
            deletedAt: (row[Column.deletedAt] as Int64?).map(Date.init(millisecondsSince1970:)),
            weather: SQLiteEntryRow.weather(row),
            tags: SQLiteEntryRow.tags(row),
            starred: (row[Column.starred] as Int64) != 0,
            photo: SQLiteEntryRow.firstPhoto(row),
            timeZone: row[Column.timeZone])
    }
}

extension SQLiteEntryRows {
    public func export(after cursor: EntryCursor?, limit: Int) async throws -> EntryBatch {
        let limit = min(max(limit, 1), Diary.largestPage)
        let start = cursor ?? EntryCursor(time: .min, entry: nil)
        return try await read { [owner] db in
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: """
                    SELECT \(SQLiteEntryRow.columns) FROM entry
                    WHERE owner_id = ? AND deleted_at IS NULL AND (created_at, seq) > (?, \(Self.cursorSequence))
                    ORDER BY created_at, seq LIMIT ?
                    """),
                arguments: [owner.rawValue, start.time, owner.rawValue, start.entry?.diaryString, Int64.min, limit + 1])
            let (entries, last) = try Self.readPage(rows, limit: limit) { SQLiteEntryRow($0).entry }
            let next = last.map { EntryCursor(time: $0.createdAt.millisecondsSince1970, entry: $0.id) }
            return EntryBatch(entries: entries, nextCursor: next)
        }
    }
}
