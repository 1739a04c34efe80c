import DiaryCore
import Foundation
import Logging
import PostgresNIO

extension PostgresEntryRows {
    /// A list row needs only the start of the body (see `Excerpt`): its first 1,600 bytes after
    /// leading blank lines, cut as bytes, so the rest of a long body never leaves the server.
    private static let summaryColumns = """
        seq, id, title, substring(ltrim(body, '\\x20090a0d'::bytea) FROM 1 FOR 1600), created_at, updated_at, version, deleted_at,
        latitude, longitude, weather_provider, weather_condition, weather_description, weather_is_day, weather_temperature,
        tags, starred, photos, time_zone
        """

    /// Where the cursor's entry stands among rows of its time: its `seq` in this diary, or
    /// `$4` when there is none (before the first page, or that entry has gone since).
    private static let cursorSequence = "COALESCE((SELECT seq FROM entry WHERE owner_id = $1 AND id = $3), $4)"

    func list(after cursor: EntryCursor?, limit: Int, filter: EntryFilter) async throws -> EntryPage {
        guard !filter.isEmpty else {
            // Row-value comparison walks the partial index from the cursor on: no OFFSET scan.
            return try await page(sql: """
                SELECT \(Self.summaryColumns) FROM entry
                WHERE owner_id = $1 AND deleted_at IS NULL AND (created_at, seq) < ($2, \(Self.cursorSequence))
                ORDER BY created_at DESC, seq DESC LIMIT $5
                """, cursor: cursor ?? EntryCursor(time: .max, entry: nil), limit: limit, time: \.createdAt)
        }
        // As on SQLite: with tags, the first tag's own index (`entry_tag`) is walked from the
        // cursor on, each row kept if its entry has the other tags (and its star); else the
        // diary's index, or the starred entries' own. $6 and $7 bound the moments; $8 on, the tags.
        let sql: String
        if !filter.tagKeys.isEmpty {
            let alsoTagged = filter.tagKeys.indices.dropFirst().map {
                " AND EXISTS (SELECT 1 FROM entry_tag o WHERE o.seq = t.seq AND o.tag_key = $\($0 + 8))"
            }.joined()
            let starredJoin = filter.starredOnly ? " JOIN entry s ON s.seq = t.seq AND s.starred" : ""
            sql = """
                SELECT \(Self.summaryColumns) FROM entry WHERE seq IN (
                    SELECT t.seq FROM entry_tag t\(starredJoin)
                    WHERE t.owner_id = $1 AND t.tag_key = $8 AND t.created_at >= $6 AND t.created_at < $7
                        AND (t.created_at, t.seq) < ($2, \(Self.cursorSequence))\(alsoTagged)
                    ORDER BY t.created_at DESC, t.seq DESC LIMIT $5)
                ORDER BY created_at DESC, seq DESC
                """
        } else {
            sql = """
                SELECT \(Self.summaryColumns) FROM entry
                WHERE owner_id = $1 AND deleted_at IS NULL\(filter.starredOnly ? " AND starred" : "")
                    AND created_at >= $6 AND created_at < $7 AND (created_at, seq) < ($2, \(Self.cursorSequence))
                ORDER BY created_at DESC, seq DESC LIMIT $5
                """
        }
        return try await page(sql: sql, cursor: cursor ?? EntryCursor(time: .max, entry: nil), limit: limit, time: \.createdAt) { binds in
            binds.append(filter.from)
            binds.append(filter.until)
            for key in filter.tagKeys { binds.append(key) }
        }
    }

    func trash(after cursor: EntryCursor?, limit: Int) async throws -> EntryPage {
        try await page(sql: """
            SELECT \(Self.summaryColumns) FROM entry
            WHERE owner_id = $1 AND deleted_at IS NOT NULL AND (deleted_at, seq) < ($2, \(Self.cursorSequence))
            ORDER BY deleted_at DESC, seq DESC LIMIT $5
            """, cursor: cursor ?? EntryCursor(time: .max, entry: nil), limit: limit, time: { $0.deletedAt ?? $0.createdAt })
    }

    func export(after cursor: EntryCursor?, limit: Int) async throws -> EntryBatch {
        let limit = min(max(limit, 1), Diary.largestPage)
        let start = cursor ?? EntryCursor(time: .min, entry: nil)
        let query = PostgresQuery(unsafeSQL: """
            SELECT \(PostgresEntryRow.columns) FROM entry
            WHERE owner_id = $1 AND deleted_at IS NULL AND (created_at, seq) > ($2, \(Self.cursorSequence))
            ORDER BY created_at, seq LIMIT $5
            """, binds: Self.binds(owner: owner, cursor: start, missing: .min, limit: limit))
        return try await database.withConnection { [logger] connection in
            var entries: [Entry] = []
            for try await row in try await connection.query(query, logger: logger) { entries.append(try PostgresEntryRow(row).entry) }
            let next = Self.nextPage(&entries, limit: limit).map { EntryCursor(time: $0.createdAt.millisecondsSince1970, entry: $0.id) }
            return EntryBatch(entries: entries, nextCursor: next)
        }
    }

    private func page(sql: String, cursor: EntryCursor, limit: Int, time: @escaping @Sendable (EntrySummary) -> Date,
                      more: (inout PostgresBindings) -> Void = { _ in }) async throws -> EntryPage {
        let limit = min(max(limit, 1), Diary.largestPage)
        var binds = Self.binds(owner: owner, cursor: cursor, missing: .max, limit: limit)
        more(&binds)
        let query = PostgresQuery(unsafeSQL: sql, binds: binds)
        return try await database.withConnection { [logger] connection in
            var summaries: [EntrySummary] = []
            summaries.reserveCapacity(limit + 1)
            for try await row in try await connection.query(query, logger: logger) {
                let entry = try PostgresEntryRow(row).entry
                summaries.append(EntrySummary(
                    id: entry.id, title: entry.title, excerpt: Excerpt.of(entry.body), createdAt: entry.createdAt,
                    updatedAt: entry.updatedAt, version: entry.version, deletedAt: entry.deletedAt, weather: entry.weather,
                    tags: entry.tags, starred: entry.starred, photo: entry.photos.first?.id, timeZone: entry.timeZone))
            }
            let next = Self.nextPage(&summaries, limit: limit).map { EntryCursor(time: time($0).millisecondsSince1970, entry: $0.id) }
            return EntryPage(entries: summaries, nextCursor: next)
        }
    }

    /// Asked for one row more than a page: when it came, drops it and returns the page's last
    /// item, where the next page starts.
    private static func nextPage<Item>(_ items: inout [Item], limit: Int) -> Item? {
        guard items.count > limit else { return nil }
        items.removeLast(items.count - limit)
        return items.last
    }

    private static func binds(owner: UserID, cursor: EntryCursor, missing: Int64, limit: Int) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(owner.rawValue)
        binds.append(cursor.time)
        binds.append(cursor.entry?.diaryString)
        binds.append(missing)
        binds.append(Int64(limit + 1))
        return binds
    }
}
