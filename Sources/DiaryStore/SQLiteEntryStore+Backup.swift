import Foundation
import GRDB

extension SQLiteEntryStore {
    /// Copies the live diary to a new file at `path` with SQLite's online backup: a consistent
    /// snapshot, taken while writers go on. An existing file is never overwritten.
    public func backup(to path: String) async throws {
        guard !FileManager.default.fileExists(atPath: path) else { throw BackupError.exists(path) }
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
