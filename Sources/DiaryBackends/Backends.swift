import DiaryCore
import DiaryPostgres
import DiaryStore
import Foundation
import Logging

/// The one place that knows every storage backend: it turns the configured database into a
/// `Storage`. Nothing else in the server or the command line names a backend (the test command
/// checks), so a new one is added here, beside its own module and its place in the
/// conformance suites' list.
public enum Backends {
    /// What the storage is opened for.
    public enum Use: Sendable {
        /// A command that runs and ends: the database does its upkeep inline.
        case command
        /// A server, which runs `Storage.maintain()` while it serves (SQLite's checkpoints then
        /// happen in the background, so no autosave waits for one; PostgreSQL's pool runs there).
        case server
    }

    /// Opens the storage at `database`: a file's path (SQLite, created 0600 when there is none),
    /// or a `postgres://` URL (PostgreSQL; see `PostgresAddress`, whose password comes from
    /// `passwordFile` or the environment, never from the URL). With `makingFolder`, a file's
    /// folder is made first (0700) when it is missing: the default location on first use. A
    /// path given explicitly must have its folder already, so that a typo is an error, not a
    /// new empty diary elsewhere.
    public static func open(
        _ database: String, for use: Use, makingFolder: Bool = false, passwordFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(label: "diary.storage")
    ) async throws -> any Storage {
        if let scheme = URLScheme.of(database) {
            guard scheme == "postgres" || scheme == "postgresql" else { throw BackendError.unsupportedURL(scheme: scheme) }
            let address = try PostgresAddress(url: database, passwordFile: passwordFile, environment: environment)
            return try await PostgresStorage.open(address, logger: logger)
        }
        if makingFolder {
            try? OwnerOnlyFile.makeFolders((database as NSString).deletingLastPathComponent)
        }
        return try SQLiteStorage(path: database, checkpoints: use == .server ? .background : .inline)
    }
}

extension Backends {
    /// Copies the whole database into a new diary file at `path` (never over an existing file):
    /// a file by SQLite's online backup; any other backend by one consistent snapshot
    /// (`Storage.readInstallation`) written into the new file, which `diary` opens like any other.
    public static func backup(_ storage: any Storage, to path: String) async throws {
        if let file = storage as? SQLiteStorage {
            try await file.backup(to: path)
        } else {
            try await SQLiteStorage.writeBackup(try await storage.readInstallation(), to: path)
        }
    }

    /// Moves a whole installation from `source` into `destination`, which must be empty: read in
    /// one snapshot, written in one transaction that checks the counts. Returns what was moved.
    public static func copy(from source: any Storage, to destination: any Storage) async throws -> Installation.Counts {
        let installation = try await source.readInstallation()
        try await destination.writeInstallation(installation)
        return installation.counts
    }
}

/// The scheme of a database given as a URL (`postgres://…`); `nil` for a file's path.
enum URLScheme {
    static func of(_ database: String) -> String? {
        guard let colon = database.range(of: "://") else { return nil }
        let scheme = database[..<colon.lowerBound]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return String(scheme)
    }
}

/// A configured database this build cannot open.
public enum BackendError: Error, CustomStringConvertible {
    case unsupportedURL(scheme: String)

    public var description: String {
        switch self {
        case .unsupportedURL(let scheme):
            "Diary keeps its diary in a file or in PostgreSQL, and cannot use \(scheme):// databases: give the path of a file or a postgres:// URL."
        }
    }
}
