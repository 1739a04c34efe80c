import DiaryCore
import Foundation
import GRDB

/// The embedded store: one SQLite file, in WAL mode so readers never wait for the writer.
public final class SQLiteEntryStore: EntryStore {
    let pool: DatabasePool
    /// The file's path, for error messages.
    public let path: String

    /// Opens the diary at `path`, creating it when there is none, and brings its schema up to
    /// date. A file that is not a diary is refused, never overwritten.
    public init(path: String) throws {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try pool.read { db in try Self.checkIsDiary(db, path: path) }
            try DiaryMigrations.migrator.migrate(pool)
        } catch {
            throw StoreError.translating(error, path: path)
        }
    }

    /// Refuses another program's database, and one written by a newer Diary.
    private static func checkIsDiary(_ db: Database, path: String) throws {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        if !tables.isEmpty && !tables.contains("grdb_migrations") {
            throw StoreError.otherProgramsDatabase(path: path)
        }
        if try DiaryMigrations.migrator.hasBeenSuperseded(db) {
            throw StoreError.madeByNewerDiary(path: path)
        }
    }

    /// Runs a read, in the diary's own words when it fails.
    func read<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await pool.read(work) } catch { throw StoreError.translating(error, path: path) }
    }

    /// Runs a write transaction, in the diary's own words when it fails.
    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await pool.write(work) } catch { throw StoreError.translating(error, path: path) }
    }

    public func create(_ text: EntryText, id: UUID, location: Coordinates?) async throws -> Entry {
        let now = Date()
        return try await write { db in
            if let existing = try EntryRow.fetch(db, id: id) { return existing.entry }
            let entry = Entry(id: id, title: text.title, body: text.body, createdAt: now, location: location)
            try EntryRow.insert(entry, db)
            return entry
        }
    }

    public func entry(id: UUID) async throws -> Entry? {
        try await read { db in try EntryRow.fetch(db, id: id)?.entry }
    }

    public func ids(startingWith prefix: String, limit: Int) async throws -> [UUID] {
        let prefix = prefix.lowercased()
        // Only hex digits and dashes can start an id; anything else would be a GLOB pattern.
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return [] }
        return try await read { db in
            try String.fetchAll(db, sql: "SELECT id FROM entry WHERE id GLOB ? LIMIT ?", arguments: [prefix + "*", limit])
                .compactMap(UUID.init(uuidString:))
        }
    }

    public func update(id: UUID, to text: EntryText, expecting version: Int?) async throws -> Entry {
        let now = Date()
        return try await write { db in
            guard let row = try EntryRow.fetch(db, id: id) else { throw EntryError.notFound(id.diaryString) }
            let current = row.entry
            // The same words again (a retried autosave) is no change, whatever version it was based on.
            if current.title == text.title && current.body == text.body { return current }
            if let version, version != current.version {
                throw EntryError.conflict(expected: version, current: current)
            }
            var changed = current
            changed.title = text.title
            changed.body = text.body
            changed.updatedAt = Date(millisecondsSince1970: now.millisecondsSince1970)
            changed.version += 1
            try EntryRow.replaceText(of: row, with: changed, db)
            return changed
        }
    }

    public func attachWeather(_ weather: Weather, to id: UUID) async throws {
        try await write { db in
            guard let row = try EntryRow.fetch(db, id: id) else { throw EntryError.notFound(id.diaryString) }
            try EntryRow.setWeather(weather, sequence: row.sequence, db)
        }
    }

    public func moveToTrash(id: UUID) async throws -> Entry {
        let now = Date(millisecondsSince1970: Date().millisecondsSince1970)
        return try await write { db in
            guard let row = try EntryRow.fetch(db, id: id) else { throw EntryError.notFound(id.diaryString) }
            if row.entry.isInTrash { return row.entry }
            var trashed = row.entry
            trashed.deletedAt = now
            trashed.version += 1
            try EntryRow.setTrashState(of: row, to: trashed, db)
            return trashed
        }
    }

    public func restore(id: UUID) async throws -> Entry {
        try await write { db in
            guard let row = try EntryRow.fetch(db, id: id) else { throw EntryError.notFound(id.diaryString) }
            if !row.entry.isInTrash { return row.entry }
            var restored = row.entry
            restored.deletedAt = nil
            restored.version += 1
            try EntryRow.setTrashState(of: row, to: restored, db)
            return restored
        }
    }

    public func purge(id: UUID) async throws {
        try await write { db in
            guard let row = try EntryRow.fetch(db, id: id) else { throw EntryError.notFound(id.diaryString) }
            try EntryRow.delete(row, db)
        }
    }

    public func count() async throws -> Int {
        try await read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM entry WHERE deleted_at IS NULL") ?? 0
        }
    }
}
