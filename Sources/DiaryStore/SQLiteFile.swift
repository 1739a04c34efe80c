import DiaryCore
import Foundation
import GRDBSQLite

/// What is at a diary's path, looked at before a `DatabasePool` is let near it: opening a pool
/// turns the file to WAL mode (a write to its header, and -wal and -shm files beside it) before
/// any query could say whose file it is. Another program's database, or any file that is not a
/// diary, must come out of a refused open byte for byte as it went in.
enum SQLiteFile {
    /// Refuses what is not a diary without changing it; makes a new, empty 0600 file where there
    /// is none, so the diary and its -wal and -shm (which SQLite gives the main file's mode) are
    /// the owner's alone whatever the umask. An empty file is a new diary, as SQLite treats it.
    static func prepare(_ path: String) throws {
        var status = stat()
        if stat(path, &status) != 0 {
            guard errno == ENOENT else { return }  // SQLite's own open will say what is wrong
            do {
                try OwnerOnlyFile.create(atPath: path).close()
            } catch let error as OwnerOnlyFileError where error.isExisting {
                try prepare(path)  // made by another process just now: look at it as it is
            } catch {
                return  // a missing folder, say: SQLite's open says so, in the diary's words
            }
            return
        }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw SQLiteFailure.folder(path: path) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw SQLiteFailure.notADiary(path: path) }
        if status.st_size == 0 { return }
        guard try startsLikeSQLite(path) else { throw SQLiteFailure.notADiary(path: path) }
        try checkTables(path)
    }

    /// Whether the file begins with SQLite's header string (and is long enough to hold a header).
    private static func startsLikeSQLite(_ path: String) throws -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else {
            throw SQLiteFailure.cannotOpen(path: path, reason: "it cannot be read")
        }
        defer { try? file.close() }
        let header = try file.read(upToCount: 100) ?? Data()
        return header.count == 100 && header.starts(with: Array("SQLite format 3\0".utf8))
    }

    /// Reads the tables and the migrations applied on a read-only connection that can write
    /// nothing. A file is a diary when its `grdb_migrations` holds Diary's first migration
    /// (`v1-entries`); one whose migrations include others Diary does not know was written by a
    /// newer Diary. Any other file with tables is another program's, including another GRDB
    /// app's, whose `grdb_migrations` Diary would otherwise have taken for its own. While a diary
    /// is open elsewhere its -shm file exists, and the connection shares its locks (`mode=ro`);
    /// with none, no one is writing it, and `immutable=1` reads the file alone, making no -shm.
    private static func checkTables(_ path: String) throws {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let inUse = FileManager.default.fileExists(atPath: path + "-shm")
        let escaped = absolute.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "?", with: "%3f").replacingOccurrences(of: "#", with: "%23")
        let uri = "file:" + escaped + (inUse ? "?mode=ro" : "?immutable=1")
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        var code = sqlite3_open_v2(uri, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        var tables: [String] = []
        var migrations: [String] = []
        if code == SQLITE_OK {
            sqlite3_busy_timeout(connection, 10_000)
            code = readColumn(connection, "SELECT name FROM sqlite_master WHERE type = 'table'", into: &tables)
            if code == SQLITE_OK && tables.contains("grdb_migrations") {
                code = readColumn(connection, "SELECT identifier FROM grdb_migrations", into: &migrations)
                // A grdb_migrations of another shape is another program's.
                if code & 0xFF == SQLITE_ERROR { throw SQLiteFailure.otherProgramsDatabase(path: path) }
            }
        }
        switch code & 0xFF {
        case SQLITE_OK:
            if tables.isEmpty { return }
            guard migrations.contains(SQLiteMigrations.first) else { throw SQLiteFailure.otherProgramsDatabase(path: path) }
            let known = Set(SQLiteMigrations.migrator.migrations)
            if migrations.contains(where: { !known.contains($0) }) { throw SQLiteFailure.madeByNewerDiary(path: path) }
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            throw SQLiteFailure.notADiary(path: path)
        case SQLITE_BUSY, SQLITE_LOCKED:
            throw SQLiteFailure.busy(path: path)
        default:
            let reason = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "unable to open the file"
            throw SQLiteFailure.cannotOpen(path: path, reason: reason)
        }
    }

    /// The first column of every row of `sql`, as text; SQLite's result code.
    private static func readColumn(_ connection: OpaquePointer?, _ sql: String, into values: inout [String]) -> Int32 {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        var code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK else { return code }
        while true {
            code = sqlite3_step(statement)
            guard code == SQLITE_ROW else { return code == SQLITE_DONE ? SQLITE_OK : code }
            if let text = sqlite3_column_text(statement, 0) { values.append(String(cString: text)) }
        }
    }
}
