import DiaryCore
import DiaryStore
import Foundation
import Testing

/// Every backend the conformance suite runs against. The PostgreSQL store joins this list.
enum StoreBackend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite

    var testDescription: String { rawValue }

    /// A new, empty store of this kind.
    func makeStore() throws -> any EntryStore {
        switch self {
        case .sqlite:
            return try SQLiteEntryStore(path: TemporaryFolder.make().appendingPathComponent("diary.sqlite").path)
        }
    }
}

enum TemporaryFolder {
    static func make() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("diary-tests-\(UUID().diaryString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
