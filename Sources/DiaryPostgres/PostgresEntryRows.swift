import DiaryCore
import Foundation
import Logging
import PostgresNIO

/// One user's diary in PostgreSQL: every query is scoped to its owner. A change reads its row
/// and writes it back only while it is still the row read (`UPDATE … WHERE version =`, and its
/// `xmin`), in one statement with the diary's change count: no lock is held between the two,
/// and a write that lost the race is worked out again from the winner's row. Changes that
/// arrive together share their statements (`ChangeGatherer`).
struct PostgresEntryRows: EntryRows {
    let database: PostgresDatabase
    let owner: UserID

    var logger: Logger { database.logger }

    var feed: ChangeFeed { database.feed }

    func insert(_ entry: Entry, orChange change: @escaping @Sendable (Entry) throws -> Entry?) async throws -> Entry {
        let inserted = try await database.withConnection { [owner, logger, feed] connection in
            // Inserted unless the id is taken; then (a retried create, two at once) changed instead.
            guard let count = try await PostgresEntryRow.insert(entry, owner: owner, counting: true, connection, logger) else {
                return false
            }
            feed.wrote(owner, count: count)
            return true
        }
        return inserted ? entry : try await self.change(id: entry.id, change)
    }

    /// Gathered with the changes that arrive at the same moment (`ChangeGatherer`): one read
    /// and one write for all of them.
    func change(id: UUID, _ change: @escaping @Sendable (Entry) throws -> Entry?) async throws -> Entry {
        try await database.changes.change(.init(owner: owner, id: id), change, in: database)
    }

    func delete(id: UUID) async throws -> Bool {
        var binds = PostgresBindings()
        binds.append(owner.rawValue)
        binds.append(id.diaryString)
        let query = PostgresQuery(unsafeSQL: ChangeCount.counting(
            "DELETE FROM entry WHERE owner_id = $1 AND id = $2 RETURNING seq", owner: "$1"), binds: binds)
        return try await database.withConnection { [owner, logger, feed] connection in
            for try await count in try await connection.query(query, logger: logger).decode(Int64.self) {
                feed.wrote(owner, count: count)
                return true
            }
            return false
        }
    }

    /// Known without asking while PostgreSQL's notifications are heard (`ChangeFeed`).
    func changeCount() async throws -> Int64 {
        if let known = feed.count(of: owner) { return known }
        let mark = feed.mark()
        return try await database.withConnection { [owner, logger, feed] connection in
            let rows = try await connection.query("SELECT count FROM diary_change WHERE owner_id = \(owner.rawValue)", logger: logger)
            var count: Int64 = 0
            for try await found in rows.decode(Int64.self) { count = found }
            feed.found(count, of: owner, since: mark)
            return count
        }
    }

    func entry(id: UUID) async throws -> Entry? {
        try await database.withConnection { [owner, logger] connection in
            try await PostgresEntryRow.fetch(id: id, owner: owner, connection, logger)?.entry
        }
    }

    func ids(startingWith prefix: String, limit: Int) async throws -> [UUID] {
        // `Diary` lets only hex digits and dashes through: the prefix holds no LIKE pattern.
        try await database.withConnection { [owner, logger] connection in
            let rows = try await connection.query("""
                SELECT id FROM entry WHERE owner_id = \(owner.rawValue) AND id LIKE \(prefix + "%") ORDER BY id LIMIT \(limit)
                """, logger: logger)
            var ids: [UUID] = []
            for try await id in rows.decode(String.self) { if let id = UUID(diaryString: id) { ids.append(id) } }
            return ids
        }
    }

    func emptyTrash(deletedBefore moment: Date?) async throws -> Int {
        try await database.withConnection { [owner, logger, feed] connection in
            try await Self.emptyTrash(of: owner, deletedBefore: moment, feed, connection, logger)
        }
    }

    /// One statement: the trashed rows go (their tags' rows with them, by the foreign key), and
    /// the diary's change count moves when any did.
    static func emptyTrash(of owner: UserID, deletedBefore moment: Date?, _ feed: ChangeFeed, _ connection: PostgresConnection,
                           _ logger: Logger) async throws -> Int {
        let before = moment?.millisecondsSince1970 ?? Int64.max
        let rows = try await connection.query("""
            WITH gone AS (
                DELETE FROM entry WHERE owner_id = \(owner.rawValue) AND deleted_at IS NOT NULL AND deleted_at < \(before) RETURNING seq),
            counted AS (
                INSERT INTO diary_change (owner_id, count) SELECT \(owner.rawValue), 1 FROM gone LIMIT 1
                ON CONFLICT (owner_id) DO UPDATE SET count = diary_change.count + 1 RETURNING count)
            SELECT (SELECT count(*) FROM gone), (SELECT count FROM counted)
            """, logger: logger)
        for try await (deleted, count) in rows.decode((Int64, Int64?).self) {
            if let count { feed.wrote(owner, count: count) }
            return Int(deleted)
        }
        return 0
    }

    func tagSpellings(keys: [String]) async throws -> [String: String] {
        try await database.withConnection { [owner, logger] connection in
            // The earliest entry's spelling of each, found in the tag's own index.
            let rows = try await connection.query("""
                SELECT k.key, (SELECT tag FROM entry_tag WHERE owner_id = \(owner.rawValue) AND tag_key = k.key
                               ORDER BY created_at, seq LIMIT 1)
                FROM unnest(\(Array(Set(keys)))::text[]) AS k (key)
                """, logger: logger)
            var spellings: [String: String] = [:]
            for try await (key, tag) in rows.decode((String, String?).self) { if let tag { spellings[key] = tag } }
            return spellings
        }
    }

    func tagCounts() async throws -> [TagCount] {
        try await database.withConnection { [owner, logger] connection in
            let rows = try await connection.query("""
                SELECT (array_agg(tag ORDER BY created_at, seq))[1], count(*) FROM entry_tag
                WHERE owner_id = \(owner.rawValue) GROUP BY tag_key
                """, logger: logger)
            var counts: [TagCount] = []
            for try await (tag, count) in rows.decode((String, Int64).self) { counts.append(TagCount(tag: tag, count: Int(count))) }
            return counts
        }
    }

    func count() async throws -> Int {
        try await database.withConnection { [owner, logger] connection in
            let rows = try await connection.query(
                "SELECT count(*) FROM entry WHERE owner_id = \(owner.rawValue) AND deleted_at IS NULL", logger: logger)
            for try await count in rows.decode(Int64.self) { return Int(count) }
            return 0
        }
    }

    func changeEntries(taggedWith keys: Set<String>, _ change: @escaping @Sendable (Entry) throws -> Entry?) async throws -> Int {
        let keys = Array(keys)
        let (written, count) = try await database.withTransaction { [owner, logger] connection -> (Int, Int64?) in
            // The diary's entries by the tags' own index, the trash's by their tag keys.
            let found = try await connection.query("""
                SELECT seq FROM entry_tag WHERE owner_id = \(owner.rawValue) AND tag_key = ANY(\(keys)::text[])
                UNION SELECT seq FROM entry WHERE owner_id = \(owner.rawValue) AND deleted_at IS NOT NULL AND tag_keys && \(keys)::text[]
                """, logger: logger)
            var sequences: [Int64] = []
            for try await sequence in found.decode(Int64.self) { sequences.append(sequence) }
            guard !sequences.isEmpty else { return (0, nil) }
            // Every row locked before any is written, so no other write comes between reading and
            // writing it; in the order of their keys, as a batch of saves locks them
            // (`ChangeGatherer`), and before the diary's count, as a batch does. Locking each row
            // after the first write held the count while it waited for a row that a batch held,
            // and that batch waited for the count: a deadlock, a second lost to each. The rows
            // are then read one at a time, so a tag on every entry never holds them all at once.
            // (NO KEY UPDATE: the lock the UPDATE that follows takes anyway. FOR UPDATE is for a
            // key changed or a row deleted, and would also hold off other foreign-key checks.)
            var locked: [Int64] = []
            for try await sequence in try await connection.query(
                "SELECT seq FROM entry WHERE seq = ANY(\(sequences)) ORDER BY seq FOR NO KEY UPDATE", logger: logger).decode(Int64.self) {
                locked.append(sequence)
            }
            var written = 0
            var count: Int64?
            for sequence in locked {
                var row: PostgresEntryRow?
                for try await read in try await connection.query(
                    "SELECT \(unescaped: PostgresEntryRow.columns) FROM entry WHERE seq = \(sequence)", logger: logger) {
                    row = try PostgresEntryRow(read)
                }
                guard let row, let changed = try change(row.entry) else { continue }
                switch try await PostgresEntryRow.rewrite(row, to: changed, owner: owner, connection, logger) {
                case .written(let moved):
                    written += 1
                    count = moved
                case .unchanged: continue
                case .lost: throw PostgresFailure(kind: .busy, "An entry changed while its tags were being renamed.")
                }
            }
            return (written, count)
        }
        if let count { feed.wrote(owner, count: count) }  // committed now
        return written
    }

    func tallies(from: Int64, until: Int64) async throws -> [EntryTally] {
        try await database.withConnection { [owner, logger] connection in
            let rows = try await connection.query("""
                SELECT created_at, word_count, time_zone FROM entry
                WHERE owner_id = \(owner.rawValue) AND deleted_at IS NULL AND created_at >= \(from) AND created_at < \(until)
                """, logger: logger)
            var tallies: [EntryTally] = []
            for try await (moment, words, zone) in rows.decode((Int64, Int32, String?).self) {
                tallies.append(EntryTally(moment: moment, words: Int(words), zone: zone))
            }
            return tallies
        }
    }

    func insert(_ entries: [Entry], onlyIntoEmptyDiary: Bool) async throws -> ImportSummary {
        let (summary, count) = try await database.withTransaction { [owner, logger] connection in
            if onlyIntoEmptyDiary {
                // Two loads of the sample at once: the second waits for the first's lock, then sees its entries.
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresMigrations.lockKey &+ 1 &+ owner.rawValue))", logger: logger)
                let rows = try await connection.query(
                    "SELECT 1 FROM entry WHERE owner_id = \(owner.rawValue) AND deleted_at IS NULL LIMIT 1", logger: logger)
                for try await _ in rows { throw EntryError.diaryNotEmpty }
            }
            var summary = ImportSummary(imported: 0, skipped: 0)
            for entry in entries {
                if try await PostgresEntryRow.insert(entry, owner: owner, connection, logger) != nil {
                    summary.imported += 1
                } else {
                    summary.skipped += 1
                }
            }
            let count = summary.imported > 0 ? try await ChangeCount.moved(owner, connection, logger) : nil
            return (summary, count)
        }
        if let count { feed.wrote(owner, count: count) }  // committed now
        return summary
    }
}
