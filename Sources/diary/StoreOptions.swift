import ArgumentParser
import DiaryCore
import DiaryStore
import Foundation

/// The option every command shares: which diary file to use.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The diary file (default: $DIARY_DATABASE, then $XDG_DATA_HOME/diary/diary.sqlite).", valueName: "path"))
    var database: String?

    /// Flag, then environment, then the XDG default: resolved here and nowhere else.
    func databasePath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let database, !database.isEmpty { return database }
        if let path = environment["DIARY_DATABASE"], !path.isEmpty { return path }
        return Self.defaultPath(environment: environment)
    }

    static func defaultPath(environment: [String: String]) -> String {
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/diary/diary.sqlite"
    }

    /// Opens the diary, creating the default folder on first use. A path given explicitly must
    /// have its folder already: a typo should be an error, not a new empty diary elsewhere.
    func openStore() throws -> SQLiteEntryStore {
        let path = databasePath()
        if database == nil && ProcessInfo.processInfo.environment["DIARY_DATABASE"] == nil {
            let folder = (path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        return try SQLiteEntryStore(path: path)
    }
}

extension EntryStore {
    /// The one entry whose id is `idOrPrefix` or starts with it.
    func resolve(_ idOrPrefix: String) async throws -> UUID {
        if let id = UUID(uuidString: idOrPrefix) { return id }
        let matches = try await ids(startingWith: idOrPrefix, limit: 2)
        switch matches.count {
        case 0: throw EntryError.notFound(idOrPrefix)
        case 1: return matches[0]
        default: throw EntryError.ambiguousID(idOrPrefix)
        }
    }
}
