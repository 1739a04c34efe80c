import ArgumentParser
import DiaryCore
import DiaryStore
import Foundation

/// The options every command shares: which diary file, and whose diary in it.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The diary file (default: $DIARY_DATABASE, then $XDG_DATA_HOME/diary/diary.sqlite).", valueName: "path"))
    var database: String?

    @Option(name: .long, help: ArgumentHelp("Whose diary to use (default: $DIARY_USER, or the only user there is).", valueName: "name"))
    var user: String?

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

    /// Opens the diary file, creating the default folder (0700, the owner's alone) on first use.
    /// A path given explicitly must have its folder already: a typo should be an error, not a
    /// new empty diary elsewhere.
    func openDatabase(checkpoints: DiaryDatabase.Checkpoints = .inline) throws -> DiaryDatabase {
        let path = databasePath()
        if database == nil && ProcessInfo.processInfo.environment["DIARY_DATABASE"] == nil {
            let folder = (path as NSString).deletingLastPathComponent
            try? OwnerOnlyFile.makeFolders(folder)
        }
        return try DiaryDatabase(path: path, checkpoints: checkpoints)
    }

    /// The diary the entry commands act on: the chosen user's, or, before any account exists,
    /// the local owner's (adopted by the first account).
    func openStore() async throws -> SQLiteEntryStore {
        let database = try openDatabase()
        let user = try await chosenUser(SQLiteAccountStore(database: database))
        return database.entries(of: user?.id ?? .localOwner)
    }

    /// `--user`'s (or `DIARY_USER`'s) account, else the only one; `nil` when there is none yet.
    func chosenUser(_ accounts: SQLiteAccountStore) async throws -> User? {
        let name = user ?? ProcessInfo.processInfo.environment["DIARY_USER"].flatMap { $0.isEmpty ? nil : $0 }
        if let name {
            guard let found = try await accounts.user(named: name) else { throw AccountError.noSuchUser(name) }
            return found
        }
        let users = try await accounts.users()
        switch users.count {
        case 0: return nil
        case 1: return users[0]
        default: throw UserChoiceError.severalUsers(users.map(\.name))
        }
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

enum UserChoiceError: Error, CustomStringConvertible {
    case severalUsers([String])

    var description: String {
        switch self {
        case .severalUsers(let names):
            "This diary has several users (\(names.joined(separator: ", "))): say whose diary with --user NAME or DIARY_USER."
        }
    }
}
