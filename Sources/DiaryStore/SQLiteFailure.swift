import DiaryCore
import Foundation
import GRDB

/// Why a diary file cannot be used. Each says what to do; none of them ever overwrites the file.
public enum SQLiteFailure: StorageFailure, Equatable, Sendable, LocalizedError {
    case cannotOpen(path: String, reason: String)
    case notADiary(path: String)
    case otherProgramsDatabase(path: String)
    case madeByNewerDiary(path: String)
    case readOnly(path: String)
    case busy(path: String)
    case folder(path: String)
    /// SQLite's SQLITE_FULL: the write was rolled back whole.
    case diskFull(path: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "Cannot open the diary at \(path) (\(reason)): check that its folder exists and that you may write there, or choose another file with --database."
        case .notADiary(let path):
            "\(path) is not a diary database (it is damaged or another kind of file); it was left untouched. Choose another file with --database."
        case .otherProgramsDatabase(let path):
            "\(path) is another program's SQLite database; it was left untouched. Choose another file with --database."
        case .madeByNewerDiary(let path):
            "\(path) was written by a newer version of Diary; update Diary to open it. It was left untouched."
        case .readOnly(let path):
            "Cannot write to the diary at \(path): the file or its folder is read-only."
        case .busy(let path):
            "The diary at \(path) is busy with another long write; try again in a moment."
        case .folder(let path):
            "\(path) is a folder, not a diary file; it was left untouched. Choose a file with --database."
        case .diskFull(let path):
            "The disk holding the diary at \(path) is full: this change was not saved, and everything saved before is intact. Free some space, then try again."
        }
    }

    public var errorDescription: String? { description }

    /// What a client of the server may be told of it (see `StorageFailure`).
    public var kind: StorageFailureKind {
        switch self {
        case .busy: .busy
        case .readOnly: .readOnly
        case .diskFull: .full
        case .cannotOpen, .notADiary, .otherProgramsDatabase, .madeByNewerDiary, .folder: .unavailable
        }
    }

    /// The diary's own words for a database error on `path`; other errors are returned unchanged.
    static func translating(_ error: any Error, path: String) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return SQLiteFailure.notADiary(path: path)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            return SQLiteFailure.cannotOpen(path: path, reason: error.message ?? "unable to open the file")
        case .SQLITE_READONLY:
            return SQLiteFailure.readOnly(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return SQLiteFailure.busy(path: path)
        case .SQLITE_FULL:
            return SQLiteFailure.diskFull(path: path)
        default:
            return error
        }
    }
}
