import DiaryCore
import Foundation
import GRDB

/// One diary file: SQLite in WAL mode (readers never wait for the writer), one pool of
/// connections, the schema brought up to date when it opens. Every user's entries, accounts
/// and sessions live here.
public final class SQLiteDatabase: Sendable {
    let pool: DatabasePool
    /// Every write goes through it: writes that arrive together share a commit.
    private let commits: GroupCommit
    /// The search index's changes, made once per commit (see `SearchIndexChanges`).
    let searchIndex = SearchIndexChanges()
    /// The short single-statement reads go here first (see `QuickReads`).
    private let quickReads: QuickReads
    /// The file's path, for error messages.
    public let path: String
    /// Who copies the write-ahead log into the file.
    public let checkpoints: Checkpoints

    /// Opens the diary at `path`, creating it (0600) when there is none. A file that is not a
    /// diary is refused, never changed, not even its journal mode (see `SQLiteFile`). `checkpoints: .background` leaves copying the write-ahead log
    /// into the file to `backgroundCheckpoints` (the server); `.inline` is SQLite's default.
    public convenience init(path: String, checkpoints: Checkpoints = .inline) throws {
        try self.init(path: path, checkpoints: checkpoints, waitingForLocks: 10)
    }

    /// `waitingForLocks`: how many seconds a write waits for another process's write to end.
    init(path: String, checkpoints: Checkpoints = .inline, waitingForLocks: TimeInterval) throws {
        self.path = path
        self.checkpoints = checkpoints
        var configuration = Configuration()
        configuration.busyMode = .timeout(waitingForLocks)
        configuration.prepareDatabase { db in
            // Only a new, empty file takes it: 16 KiB pages hold a typical entry without spilling
            // into half-empty overflow pages (measured: 1.87× the text at 100,000 entries, not 2.1×).
            try db.execute(sql: "PRAGMA page_size = 16384")
            if checkpoints == .background {
                // The log is reused from its start once copied back; past 64 MiB it is also cut
                // back to that size, so a burst of writes does not keep its disk space.
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = 67108864")
            }
        }
        // Search results are ordered by `diary_rank`, which each connection must know.
        configuration.prepareDatabase { db in try SearchRanking.register(db) }
        do {
            // Before the pool, which would turn another program's file to WAL mode at once.
            try SQLiteFile.prepare(path)
            pool = try DatabasePool(path: path, configuration: configuration)
            commits = GroupCommit(pool: pool, searchIndex: searchIndex)
            try pool.read { db in try Self.checkIsDiary(db, path: path) }
            try SQLiteMigrations.migrator.migrate(pool)
            quickReads = QuickReads(path: path)
        } catch {
            throw SQLiteFailure.translating(error, path: path)
        }
    }

    /// Refuses another program's database, and one written by a newer Diary.
    private static func checkIsDiary(_ db: Database, path: String) throws {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        if !tables.isEmpty && !tables.contains("grdb_migrations") {
            throw SQLiteFailure.otherProgramsDatabase(path: path)
        }
        if try SQLiteMigrations.migrator.hasBeenSuperseded(db) {
            throw SQLiteFailure.madeByNewerDiary(path: path)
        }
    }

    /// Who copies the write-ahead log into the database file.
    public enum Checkpoints: Sendable {
        /// SQLite, inside the commit that lets the log pass 1,000 pages.
        case inline
        /// `backgroundCheckpoints`, on its own connection, while commits go on.
        case background
    }

    /// The checkpoints of a database opened with `checkpoints: .background`: run it for as long
    /// as the database is open (by default, a look every 100 ms; a copy once the log passes
    /// 1 MiB). Small and often: the copy ends with a sync of the database file, and the commits
    /// made meanwhile wait for the disk behind it. Every second with 4 MiB, those waits were
    /// 30–90 ms, and they were the p99 of autosaves; every 100 ms, about 12 ms.
    public func backgroundCheckpoints(interval: Duration = .milliseconds(100), threshold: Int = 1 << 20) -> BackgroundCheckpoints {
        BackgroundCheckpoints(path: path, pool: pool, interval: interval, threshold: threshold)
    }

    /// The rows of one user's diary.
    public func entries(of owner: UserID) -> SQLiteEntryRows {
        SQLiteEntryRows(database: self, owner: owner)
    }

    /// Runs a read, in the diary's own words when it fails.
    func read<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await pool.read(work) } catch { throw SQLiteFailure.translating(error, path: path) }
    }

    /// Runs a read of a single statement, without a transaction around it. The busiest answers
    /// (a page of the list, one entry, who a token belongs to) are each one statement, which
    /// reads one snapshot of the WAL database by itself; the BEGIN and COMMIT that `read` wraps
    /// around its work were a fifth of such a request's time (measured with `perf`).
    ///
    /// It runs on the caller's thread when one of `quickReads`' connections is free, through the
    /// pool otherwise; it never waits for a connection on the caller's thread.
    func readStatement<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            if case .done(let result) = try quickReads.tryRead(work) { return result }
            return try await pool.unsafeRead(work)
        } catch {
            throw SQLiteFailure.translating(error, path: path)
        }
    }

    /// Runs `work` as one write, all or nothing, in the diary's own words when it fails. It
    /// may share its commit with writes that arrive at the same time (see `GroupCommit`).
    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await commits.write(work) } catch { throw SQLiteFailure.translating(error, path: path) }
    }
}
