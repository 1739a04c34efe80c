import DiaryCore
import DiaryStore
import Foundation
import Testing

/// Every backend the conformance suite runs against. The PostgreSQL store joins this list.
enum StoreBackend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite

    var testDescription: String { rawValue }

    /// A new, empty storage of this kind.
    func makeStorage() throws -> any Storage {
        switch self {
        case .sqlite:
            return try SQLiteStorage(path: TemporaryFolder.make().appendingPathComponent("diary.sqlite").path)
        }
    }

    /// The local owner's diary in a new, empty storage of this kind.
    func makeStore() throws -> Diary {
        try makeStorage().diary(of: .localOwner)
    }
}

extension SQLiteStorage {
    /// The local owner's diary in the file at `path`: the command line before any account exists.
    static func diary(path: String) throws -> Diary {
        try SQLiteStorage(path: path).diary(of: .localOwner)
    }
}

enum TemporaryFolder {
    static func make() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("diary-tests-\(UUID().diaryString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
