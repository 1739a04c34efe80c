import DiaryBackends
import DiaryCore
import DiaryStore
import Foundation
import Testing

/// Every backend the conformance suites run against: SQLite always; PostgreSQL when
/// `DIARY_TEST_POSTGRES` names a server's maintenance database (`scripts/test` starts a
/// throwaway cluster and sets it, with the password in `PGPASSWORD`). Each test gets a new,
/// empty database of its own.
enum StoreBackend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    static var allCases: [StoreBackend] {
        PostgresForTests.url == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    var testDescription: String { rawValue }

    /// A new, empty storage of this kind.
    func makeStorage() async throws -> any Storage {
        switch self {
        case .sqlite:
            return try SQLiteStorage(path: TemporaryFolder.make().appendingPathComponent("diary.sqlite").path)
        case .postgres:
            return try await Backends.open(try PostgresForTests.newDatabase(), for: .command)
        }
    }

    /// Two storages on one new, empty database of this kind, as two processes (or two
    /// `diary serve` instances) would open it.
    func makeTwoInstances() async throws -> (any Storage, any Storage) {
        let database: String
        switch self {
        case .sqlite: database = try TemporaryFolder.make().appendingPathComponent("diary.sqlite").path
        case .postgres: database = try PostgresForTests.newDatabase()
        }
        let one = try await Backends.open(database, for: .command)
        return (one, try await Backends.open(database, for: .command))
    }

    /// The local owner's diary in a new, empty storage of this kind.
    func makeStore() async throws -> Diary {
        try await makeStorage().diary(of: .localOwner)
    }
}

/// The PostgreSQL server the tests may use, and new databases on it.
enum PostgresForTests {
    /// `postgres://USER@HOST:PORT/DATABASE` of a database from which others can be made.
    static let url = ProcessInfo.processInfo.environment["DIARY_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

    /// The URL of a new, empty database (made with `psql`, as an operator would).
    static func newDatabase() throws -> String {
        guard let url, let slash = url.range(of: "/", options: .backwards) else { throw Unavailable() }
        let name = "diary_test_" + UUID().diaryString.replacingOccurrences(of: "-", with: "").prefix(16)
        try psql(url, "CREATE DATABASE \(name)")
        return String(url[..<slash.lowerBound]) + "/" + name
    }

    /// Runs one SQL command with `psql` on the database at `url`.
    static func psql(_ url: String, _ command: String) throws {
        try psql(url, [command])
    }

    /// Runs SQL commands one after the other, each on its own (`-c`), in one `psql`; the first
    /// that fails stops it.
    static func psql(_ url: String, _ commands: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["-X", "-q", "-v", "ON_ERROR_STOP=1", url] + commands.flatMap { ["-c", $0] }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw PSQLFailed(message: message)
        }
    }

    struct Unavailable: Error {}
    struct PSQLFailed: Error { let message: String }
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
