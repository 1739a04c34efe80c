import Foundation
import GRDB

extension SQLiteEntryStore {
    /// Copies the live diary to a new file at `path` with SQLite's online backup: a consistent
    /// snapshot, taken while writers go on. An existing file is never overwritten. The copy is
    /// made 0600 before SQLite writes a byte of it: a backup is as private as the diary.
    public func backup(to path: String) async throws {
        do {
            try OwnerOnlyFile.create(atPath: path).close()
        } catch let error as OwnerOnlyFileError {
            throw error.isExisting ? BackupError.exists(path) : StoreError.cannotOpen(path: path, reason: error.description)
        }
        do {
            let copy = try DatabaseQueue(path: path)
            try await pool.backup(to: copy)
            try copy.close()
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw StoreError.translating(error, path: path)
        }
    }
}

public enum BackupError: Error, Equatable, CustomStringConvertible {
    case exists(String)

    public var description: String {
        switch self {
        case .exists(let path): "\(path) already exists; a backup never overwrites a file. Choose a new name."
        }
    }
}
