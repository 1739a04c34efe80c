import Foundation
import GRDBSQLite

/// What is at a diary's path, looked at before a `DatabasePool` is let near it: opening a pool
/// turns the file to WAL mode (a write to its header, and -wal and -shm files beside it) before
/// any query could say whose file it is. Another program's database, or any file that is not a
/// diary, must come out of a refused open byte for byte as it went in.
enum DiaryFile {
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
        if (status.st_mode & S_IFMT) == S_IFDIR { throw StoreError.folder(path: path) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw StoreError.notADiary(path: path) }
        if status.st_size == 0 { return }
        guard try startsLikeSQLite(path) else { throw StoreError.notADiary(path: path) }
        try checkTables(path)
    }

    /// Whether the file begins with SQLite's header string (and is long enough to hold a header).
    private static func startsLikeSQLite(_ path: String) throws -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else {
            throw StoreError.cannotOpen(path: path, reason: "it cannot be read")
        }
        defer { try? file.close() }
        let header = try file.read(upToCount: 100) ?? Data()
        return header.count == 100 && header.starts(with: Array("SQLite format 3\0".utf8))
    }

    /// Reads the list of tables on a read-only connection that can write nothing: a file with a
    /// table but none of Diary's migrations is another program's. While a diary is open
    /// elsewhere its -shm file exists, and the connection shares its locks (`mode=ro`); with none,
    /// no one is writing it, and `immutable=1` reads the file alone, making no -shm beside it.
    private static func checkTables(_ path: String) throws {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let inUse = FileManager.default.fileExists(atPath: path + "-shm")
        let escaped = absolute.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "?", with: "%3f").replacingOccurrences(of: "#", with: "%23")
        let uri = "file:" + escaped + (inUse ? "?mode=ro" : "?immutable=1")
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        var code = sqlite3_open_v2(uri, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        var tables: Int32 = 0, migrations: Int32 = 0
        if code == SQLITE_OK {
            sqlite3_busy_timeout(connection, 10_000)
            var statement: OpaquePointer?
            code = sqlite3_prepare_v2(connection, """
                SELECT count(*), count(CASE WHEN name = 'grdb_migrations' THEN 1 END) FROM sqlite_master WHERE type = 'table'
                """, -1, &statement, nil)
            if code == SQLITE_OK {
                code = sqlite3_step(statement)
                if code == SQLITE_ROW {
                    (tables, migrations) = (sqlite3_column_int(statement, 0), sqlite3_column_int(statement, 1))
                    code = SQLITE_OK
                }
            }
            sqlite3_finalize(statement)
        }
        switch code & 0xFF {
        case SQLITE_OK:
            if tables > 0 && migrations == 0 { throw StoreError.otherProgramsDatabase(path: path) }
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            throw StoreError.notADiary(path: path)
        case SQLITE_BUSY, SQLITE_LOCKED:
            throw StoreError.busy(path: path)
        default:
            let reason = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "unable to open the file"
            throw StoreError.cannotOpen(path: path, reason: reason)
        }
    }
}
