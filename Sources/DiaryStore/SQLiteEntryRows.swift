import DiaryCore
import Foundation
import GRDB

/// One user's diary in a `SQLiteDatabase`: every query is scoped to its owner, so no entry of
/// another user is ever read, listed, found or changed through it. It reads and writes rows;
/// what a change may be is `Diary`'s to decide.
public struct SQLiteEntryRows: EntryRows {
    public let database: SQLiteDatabase
    public let owner: UserID

    public init(database: SQLiteDatabase, owner: UserID) {
        self.database = database
        self.owner = owner
    }

    var pool: DatabasePool { database.pool }
    /// Where entry writes note their words for the search index.
    var index: SearchIndexChanges { database.searchIndex }

    func read<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await database.read(work)
    }

    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await database.write(work)
    }

    public func insert(_ entry: Entry, orChange change: @escaping @Sendable (Entry) throws -> Entry?) async throws -> Entry {
        try await write { [owner, index] db in
            if let existing = try SQLiteEntryRow.fetch(db, id: entry.id, owner: owner) {
                return try Self.store(change(existing.entry), over: existing, owner: owner, index: index, db)
            }
            try SQLiteEntryRow.insert(entry, owner: owner, index: index, db)
            try ChangeCount.moved(owner, db)
            return entry
        }
    }

    public func change(id: UUID, _ change: @escaping @Sendable (Entry) throws -> Entry?) async throws -> Entry {
        try await write { [owner, index] db in
            guard let row = try SQLiteEntryRow.fetch(db, id: id, owner: owner) else { throw EntryError.notFound(id.diaryString) }
            return try Self.store(change(row.entry), over: row, owner: owner, index: index, db)
        }
    }

    /// Writes `changed` (when there is a change) over the stored `row`; returns the entry as stored.
    private static func store(_ changed: Entry?, over row: SQLiteEntryRow, owner: UserID, index: SearchIndexChanges,
                              _ db: Database) throws -> Entry {
        guard let changed else { return row.entry }
        try SQLiteEntryRow.rewrite(row, to: changed, owner: owner, index: index, db)
        try ChangeCount.moved(owner, db)
        return changed
    }

    public func delete(id: UUID) async throws -> Bool {
        try await write { [owner, index] db in
            guard let row = try SQLiteEntryRow.fetch(db, id: id, owner: owner) else { return false }
            try SQLiteEntryRow.delete(row, index: index, db)
            try ChangeCount.moved(owner, db)
            return true
        }
    }

    public func changeCount() async throws -> Int64 {
        try await database.readStatement { [owner] db in try ChangeCount.read(of: owner, db) }
    }

    public func entry(id: UUID) async throws -> Entry? {
        try await database.readStatement { [owner] db in try SQLiteEntryRow.fetch(db, id: id, owner: owner)?.entry }
    }

    public func ids(startingWith prefix: String, limit: Int) async throws -> [UUID] {
        // `Diary` lets only hex digits and dashes through, so the prefix holds no GLOB pattern.
        try await read { [owner] db in
            try String.fetchAll(db, sql: "SELECT id FROM entry WHERE id GLOB ? AND owner_id = ? LIMIT ?", arguments: [prefix + "*", owner.rawValue, limit])
                .compactMap(UUID.init(uuidString:))
        }
    }

    public func emptyTrash(deletedBefore moment: Date?) async throws -> Int {
        try await write { [owner, index] db in try Self.emptyTrash(of: owner, deletedBefore: moment, index: index, db) }
    }

    /// Deletes `owner`'s trashed entries (each with its words: the search index is contentless).
    static func emptyTrash(of owner: UserID, deletedBefore moment: Date?, index: SearchIndexChanges, _ db: Database) throws -> Int {
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT \(SQLiteEntryRow.columns) FROM entry WHERE owner_id = ? AND deleted_at IS NOT NULL AND deleted_at < ?
            """), arguments: [owner.rawValue, moment?.millisecondsSince1970 ?? Int64.max]).map { SQLiteEntryRow($0) }
        for row in rows { try SQLiteEntryRow.delete(row, index: index, db) }
        if !rows.isEmpty { try ChangeCount.moved(owner, db) }
        return rows.count
    }

    public func tagSpellings(keys: [String]) async throws -> [String: String] {
        try await read { [owner] db in
            // The earliest entry's spelling of each, found in the tag's own index.
            let statement = try db.cachedStatement(sql: "SELECT tag FROM entry_tag WHERE owner_id = ? AND tag_key = ? LIMIT 1")
            var spellings: [String: String] = [:]
            for key in Set(keys) {
                if let tag = try String.fetchOne(statement, arguments: [owner.rawValue, key]) { spellings[key] = tag }
            }
            return spellings
        }
    }

    public func tagCounts() async throws -> [TagCount] {
        try await read { [owner] db in
            // One walk of the owner's part of the tags' index, in key order. With min(), SQLite
            // takes the bare `tag` from the row with the earliest moment.
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT tag, min(created_at), count(*) FROM entry_tag WHERE owner_id = ? GROUP BY tag_key
                """), arguments: [owner.rawValue]).map { TagCount(tag: $0[0], count: $0[2]) }
        }
    }

    public func changeEntries(taggedWith keys: Set<String>, _ change: @escaping @Sendable (Entry) throws -> Entry?) async throws -> Int {
        let sequences = try await read { [owner] db in
            // The diary's entries by the tags' own index; the trash's (which it leaves out) by
            // reading their tags, so that a restored entry keeps the new name.
            var sequences = Set<Int64>()
            let tagged = try db.cachedStatement(sql: "SELECT seq FROM entry_tag WHERE owner_id = ? AND tag_key = ?")
            for key in keys { sequences.formUnion(try Int64.fetchAll(tagged, arguments: [owner.rawValue, key])) }
            let trashed = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT seq, tags FROM entry WHERE owner_id = ? AND deleted_at IS NOT NULL AND tags != ''
                """), arguments: [owner.rawValue])
            while let row = try trashed.next() {
                let tags = row.text(1).split(separator: SQLiteEntryRow.tagSeparator).map { Tags.key(String($0)) }
                if tags.contains(where: keys.contains) { sequences.insert(row.integer(0)) }
            }
            return sequences.sorted()
        }
        // SQLite has one writer for every diary of the file: a tag on 30,000 entries is renamed
        // a batch at a time, each its own transaction, so the autosaves of everyone else go on
        // between them (each entry read again in its batch: the rule sees what is there now).
        var written = 0
        for start in stride(from: 0, to: sequences.count, by: Self.changeBatch) {
            let batch = Array(sequences[start..<min(start + Self.changeBatch, sequences.count)])
            written += try await write { [owner, index] db in
                var written = 0
                let read = try db.cachedStatement(sql: "SELECT \(SQLiteEntryRow.columns) FROM entry WHERE seq = ? AND owner_id = ?")
                for sequence in batch {
                    let rows = try Row.fetchCursor(read, arguments: [sequence, owner.rawValue])
                    guard let row = try rows.next().map({ SQLiteEntryRow($0) }), let changed = try change(row.entry) else { continue }
                    try SQLiteEntryRow.rewrite(row, to: changed, owner: owner, index: index, db)
                    written += 1
                }
                if written > 0 { try ChangeCount.moved(owner, db) }
                return written
            }
        }
        return written
    }

    /// Entries one transaction of `changeEntries` rewrites at most.
    static let changeBatch = 500

    public func tallies(from: Int64, until: Int64) async throws -> [EntryTally] {
        try await read { [owner] db in
            // The diary's own index holds the span in order; the word count is read beside it.
            let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT created_at, word_count, time_zone FROM entry
                WHERE owner_id = ? AND deleted_at IS NULL AND created_at >= ? AND created_at < ?
                """), arguments: [owner.rawValue, from, until])
            var tallies: [EntryTally] = []
            while let row = try rows.next() {
                tallies.append(EntryTally(moment: row.integer(0), words: Int(row.integer(1)), zone: row.optionalText(2)))
            }
            return tallies
        }
    }

    public func count() async throws -> Int {
        try await read { [owner] db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM entry WHERE owner_id = ? AND deleted_at IS NULL", arguments: [owner.rawValue]) ?? 0
        }
    }
}
