import DiaryCore
import Foundation
import GRDB

/// One user's diary in a `DiaryDatabase`: every query is scoped to its owner, so no entry of
/// another user is ever read, listed, found or changed through it.
public struct SQLiteEntryStore: EntryStore {
    public let database: DiaryDatabase
    public let owner: UserID

    public init(database: DiaryDatabase, owner: UserID) {
        self.database = database
        self.owner = owner
    }

    /// The local owner's diary in the file at `path`: the command line before any account exists.
    public init(path: String) throws {
        self.init(database: try DiaryDatabase(path: path), owner: .localOwner)
    }

    public var path: String { database.path }
    var pool: DatabasePool { database.pool }
    /// Where entry writes note their words for the search index.
    var index: SearchIndexChanges { database.searchIndex }

    func read<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await database.read(work)
    }

    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await database.write(work)
    }

    public func create(_ text: EntryText, id: UUID, location: Coordinates?, basedOn version: Int?) async throws -> Entry {
        let now = Date()
        let owner = self.owner, index = self.index
        return try await write { db in
            if let existing = try EntryRow.fetch(db, id: id, owner: owner) {
                // A repeated create: the newer text of a retry replaces the earlier try's, in
                // the same transaction that finds it, if nothing has changed the entry since.
                guard let version, version == existing.entry.version else { return existing.entry }
                return try Self.rewrite(existing, to: text, at: now, owner: owner, index: index, db)
            }
            let entry = Entry(id: id, title: text.title, body: text.body, createdAt: now, location: location)
            try EntryRow.insert(entry, owner: owner, index: index, db)
            try ChangeCount.moved(owner, db)
            return entry
        }
    }

    public func changeCount() async throws -> Int64 {
        try await database.readStatement { [owner] db in try ChangeCount.read(of: owner, db) }
    }

    public func entry(id: UUID) async throws -> Entry? {
        try await database.readStatement { [owner] db in try EntryRow.fetch(db, id: id, owner: owner)?.entry }
    }

    public func ids(startingWith prefix: String, limit: Int) async throws -> [UUID] {
        let prefix = prefix.lowercased()
        // Only hex digits and dashes can start an id; anything else would be a GLOB pattern.
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return [] }
        return try await read { [owner] db in
            try String.fetchAll(db, sql: "SELECT id FROM entry WHERE id GLOB ? AND owner_id = ? LIMIT ?", arguments: [prefix + "*", owner.rawValue, limit])
                .compactMap(UUID.init(uuidString:))
        }
    }

    public func update(id: UUID, to text: EntryText, expecting version: Int?) async throws -> Entry {
        let now = Date()
        return try await write { [owner, index] db in
            guard let row = try EntryRow.fetch(db, id: id, owner: owner) else { throw EntryError.notFound(id.diaryString) }
            let current = row.entry
            // The same words again (a retried autosave) is no change, whatever version it was based on.
            if text.isSame(as: current) { return current }
            if let version, version != current.version {
                throw EntryError.conflict(expected: version, current: current)
            }
            return try Self.rewrite(row, to: text, at: now, owner: owner, index: index, db)
        }
    }

    /// Gives a stored entry new words, as its next version.
    private static func rewrite(_ row: EntryRow, to text: EntryText, at now: Date, owner: UserID,
                                index: SearchIndexChanges, _ db: Database) throws -> Entry {
        let current = row.entry
        if text.isSame(as: current) { return current }
        var changed = current
        changed.title = text.title
        changed.body = text.body
        changed.updatedAt = Date(millisecondsSince1970: now.millisecondsSince1970)
        try changed.advanceVersion()
        try EntryRow.replaceText(of: row, with: changed, index: index, db)
        try ChangeCount.moved(owner, db)
        return changed
    }

    public func attachWeather(_ weather: Weather, to id: UUID) async throws {
        try await write { [owner] db in
            guard let row = try EntryRow.fetch(db, id: id, owner: owner) else { throw EntryError.notFound(id.diaryString) }
            try EntryRow.setWeather(weather, sequence: row.sequence, db)
            try ChangeCount.moved(owner, db)
        }
    }

    public func moveToTrash(id: UUID) async throws -> Entry {
        let now = Date(millisecondsSince1970: Date().millisecondsSince1970)
        return try await write { [owner] db in
            guard let row = try EntryRow.fetch(db, id: id, owner: owner) else { throw EntryError.notFound(id.diaryString) }
            if row.entry.isInTrash { return row.entry }
            var trashed = row.entry
            trashed.deletedAt = now
            try trashed.advanceVersion()
            try EntryRow.setTrashState(of: row, to: trashed, db)
            try ChangeCount.moved(owner, db)
            return trashed
        }
    }

    public func restore(id: UUID) async throws -> Entry {
        try await write { [owner] db in
            guard let row = try EntryRow.fetch(db, id: id, owner: owner) else { throw EntryError.notFound(id.diaryString) }
            if !row.entry.isInTrash { return row.entry }
            var restored = row.entry
            restored.deletedAt = nil
            try restored.advanceVersion()
            try EntryRow.setTrashState(of: row, to: restored, db)
            try ChangeCount.moved(owner, db)
            return restored
        }
    }

    public func purge(id: UUID) async throws {
        try await write { [owner, index] db in
            guard let row = try EntryRow.fetch(db, id: id, owner: owner) else { throw EntryError.notFound(id.diaryString) }
            try EntryRow.delete(row, index: index, db)
            try ChangeCount.moved(owner, db)
        }
    }

    public func count() async throws -> Int {
        try await read { [owner] db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM entry WHERE owner_id = ? AND deleted_at IS NULL", arguments: [owner.rawValue]) ?? 0
        }
    }
}
