import DiaryCore
import Foundation
import GRDB

extension SQLiteStorage {
    /// Copies the live diary to a new file at `path` with SQLite's online backup: a consistent
    /// snapshot, taken while writers go on. An existing file is never overwritten. The copy is
    /// made 0600 before SQLite writes a byte of it: a backup is as private as the diary.
    public func backup(to path: String) async throws {
        try Self.createBackupFile(at: path)
        do {
            let copy = try DatabaseQueue(path: path)
            try await database.pool.backup(to: copy)
            try copy.close()
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw SQLiteFailure.translating(error, path: path)
        }
    }
}

extension SQLiteStorage {
    /// Writes `installation` (another backend's snapshot) into a new diary file at `path`: the
    /// file is made 0600 first and never overwrites one; on any error it is removed again.
    public static func writeBackup(_ installation: Installation, to path: String) async throws {
        try createBackupFile(at: path)
        do {
            let storage = try SQLiteStorage(path: path)
            try await storage.writeInstallation(installation)
            try storage.database.pool.close()
        } catch {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            throw error
        }
    }

    /// Makes the (empty) file of a backup, the owner's alone; refuses an existing one.
    static func createBackupFile(at path: String) throws {
        do {
            try OwnerOnlyFile.create(atPath: path).close()
        } catch let error as OwnerOnlyFileError {
            // The backup's own words: SQLiteFailure's advice is about the diary file (--database).
            switch error.code {
            case EEXIST: throw BackupError.exists(path)
            case ENOENT: throw BackupError.noFolder(path)
            default: throw BackupError.cannotCreate(path, reason: String(cString: strerror(error.code)))
            }
        }
    }
}

public enum BackupError: Error, Equatable, CustomStringConvertible {
    case exists(String)
    /// The folder the backup would go in is not there.
    case noFolder(String)
    case cannotCreate(String, reason: String)

    public var description: String {
        switch self {
        case .exists(let path): "\(path) already exists; a backup never overwrites a file. Choose a new name."
        case .noFolder(let path):
            "Cannot write the backup to \(path): the folder \((path as NSString).deletingLastPathComponent) does not exist. Make it first, or choose a file in a folder that exists."
        case .cannotCreate(let path, let reason):
            "Cannot write the backup to \(path) (\(reason)): choose a file in a folder you may write to."
        }
    }
}
