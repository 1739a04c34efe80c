import ArgumentParser
import DiaryCore
import DiaryBackends
import DiaryPasswords
import Foundation

/// Which database: the options of every command. The commands that act on one person's diary
/// add `--user` (`StoreOptions`); those that act on the whole installation (`serve`, `backup`,
/// `user`) offer only these.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The diary's database: a file, or a postgres:// URL (default: $DIARY_DATABASE, then $XDG_DATA_HOME/diary/diary.sqlite).", valueName: "path or URL"))
    var database: String?

    @Option(name: .long, help: ArgumentHelp("A file whose first line is PostgreSQL's password (default: $DIARY_DATABASE_PASSWORD_FILE, then PGPASSWORD, then PGPASSFILE or ~/.pgpass).", valueName: "path"))
    var databasePasswordFile: String?

    static let databaseSetting = Setting<String>(flag: "--database", variable: "DIARY_DATABASE")
    static let passwordFileSetting = Setting<String>(flag: "--database-password-file", variable: "DIARY_DATABASE_PASSWORD_FILE")

    /// `--database`, then `DIARY_DATABASE`, then the XDG default (an empty flag counts as none).
    func database(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Resolved<String> {
        try Self.databaseSetting.resolve(flag: database.flatMap { $0.isEmpty ? nil : $0 }, environment: environment,
                                         default: Self.defaultPath(environment: environment))
    }

    static func defaultPath(environment: [String: String]) -> String {
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/diary/diary.sqlite"
    }

    /// Opens the storage (see `Backends.open`), making the default folder (0700, the owner's
    /// alone) on first use. A path given explicitly must have its folder already: a typo should
    /// be an error, not a new empty diary elsewhere.
    func openStorage(for use: Backends.Use = .command) async throws -> any Storage {
        let environment = ProcessInfo.processInfo.environment
        let chosen = try database(environment: environment)
        let passwordFile = try Self.passwordFileSetting.resolve(flag: databasePasswordFile, environment: environment)?.value
        return try await Backends.open(chosen.value, for: use, makingFolder: chosen.source == .defaultValue,
                                       passwordFile: passwordFile, environment: environment)
    }

    /// The accounts of `storage`. Only the commands that set a password read `DIARY_BCRYPT_COST`
    /// (see `PasswordSettings`): a bad value must not stop `diary list`.
    func accounts(of storage: any Storage, settingPasswords: Bool = false) throws -> Accounts {
        let cost = settingPasswords ? try PasswordSettings.bcryptCost(environment: ProcessInfo.processInfo.environment) : 12
        return storage.accounts(passwords: BcryptPasswords(cost: cost))
    }
}

/// The options of the commands that act on one person's diary: which database, and whose diary.
struct StoreOptions: ParsableArguments {
    @OptionGroup var place: DatabaseOptions

    @Option(name: .long, help: ArgumentHelp("Whose diary to use (default: $DIARY_USER, or the only user there is).", valueName: "name"))
    var user: String?

    static let userSetting = Setting<String>(flag: "--user", variable: "DIARY_USER")

    func openStorage(for use: Backends.Use = .command) async throws -> any Storage {
        try await place.openStorage(for: use)
    }

    func accounts(of storage: any Storage, settingPasswords: Bool = false) throws -> Accounts {
        try place.accounts(of: storage, settingPasswords: settingPasswords)
    }

    /// The diary the entry commands act on: the chosen user's, or, before any account exists,
    /// the local owner's (adopted by the first account).
    func openDiary() async throws -> Diary {
        try await openDiaryWithPhotos().diary
    }

    /// The diary, as `openDiary` chooses it, and its photos with their rules (no quota: the
    /// command line is the operator's own), for the commands that add photos.
    func openDiaryWithPhotos() async throws -> (diary: Diary, photos: DiaryPhotos) {
        let storage = try await openStorage()
        let owner = try await chosenUser(try accounts(of: storage))?.id ?? .localOwner
        return (storage.diary(of: owner), storage.photos(of: owner))
    }

    /// `--user`'s (or `DIARY_USER`'s) account, else the only one; `nil` when there is none yet.
    func chosenUser(_ accounts: Accounts) async throws -> User? {
        if let name = try Self.userSetting.resolve(flag: user, environment: ProcessInfo.processInfo.environment)?.value {
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

enum UserChoiceError: Error, CustomStringConvertible {
    case severalUsers([String])

    var description: String {
        switch self {
        case .severalUsers(let names):
            "This diary has several users (\(names.joined(separator: ", "))): say whose diary with --user NAME or DIARY_USER."
        }
    }
}
