import Foundation

/// Everything an installation keeps that is worth moving: its accounts (with their password
/// hashes), their access tokens (hashes), and every diary's entries, the trash included, with
/// their versions, and every diary's photos with their thumbnails. Sessions and login throttles
/// are not moved: people log in again.
///
/// The photos' bytes are held in memory while they move: a copy of a diary with 2 GB of photos
/// needs 2 GB of memory (docs/known-problems.md).
///
/// `diary copy` reads one from a storage (`Storage.readInstallation`, one consistent snapshot)
/// and writes it into another (`Storage.writeInstallation`, one transaction); `diary backup`
/// of a PostgreSQL database writes one into a new SQLite file.
public struct Installation: Sendable, Equatable {
    public struct Account: Sendable, Equatable {
        public var id: UserID
        public var name: String
        /// `nil` for the newer of two accounts made before name keys existed that share one.
        public var nameKey: String?
        public var passwordHash: String
        public var createdAt: Date

        public init(id: UserID, name: String, nameKey: String?, passwordHash: String, createdAt: Date) {
            self.id = id
            self.name = name
            self.nameKey = nameKey
            self.passwordHash = passwordHash
            self.createdAt = createdAt
        }
    }

    public struct Token: Sendable, Equatable {
        public var user: UserID
        public var name: String
        public var tokenHash: String
        public var createdAt: Date
        public var lastUsedAt: Date?

        public init(user: UserID, name: String, tokenHash: String, createdAt: Date, lastUsedAt: Date?) {
            self.user = user
            self.name = name
            self.tokenHash = tokenHash
            self.createdAt = createdAt
            self.lastUsedAt = lastUsedAt
        }
    }

    /// A photo with its bytes and its thumbnail's.
    public struct Photo: Sendable, Equatable {
        public var stored: StoredPhoto
        public var bytes: Data
        public var thumbnail: Data?

        public init(stored: StoredPhoto, bytes: Data, thumbnail: Data?) {
            self.stored = stored
            self.bytes = bytes
            self.thumbnail = thumbnail
        }
    }

    public var accounts: [Account]
    public var tokens: [Token]
    /// Each diary's entries (its owner's; `UserID.localOwner`'s before any account), in the
    /// order they were stored, the trash included.
    public var entries: [UserID: [Entry]]
    /// Each diary's photos, by name.
    public var photos: [UserID: [Photo]]

    public init(accounts: [Account], tokens: [Token], entries: [UserID: [Entry]], photos: [UserID: [Photo]] = [:]) {
        self.accounts = accounts
        self.tokens = tokens
        self.entries = entries
        self.photos = photos
    }

    /// What a copy must have moved, to be checked on both sides.
    public var counts: Counts {
        let all = entries.values.joined()
        return Counts(accounts: accounts.count, tokens: tokens.count, entries: all.count,
                      trashed: all.filter { $0.deletedAt != nil }.count, photos: photos.values.joined().count)
    }

    public struct Counts: Sendable, Equatable, CustomStringConvertible {
        public var accounts: Int
        public var tokens: Int
        public var entries: Int
        public var trashed: Int
        public var photos: Int

        public init(accounts: Int, tokens: Int, entries: Int, trashed: Int, photos: Int = 0) {
            self.accounts = accounts
            self.tokens = tokens
            self.entries = entries
            self.trashed = trashed
            self.photos = photos
        }

        public var description: String {
            "\(accounts) account\(accounts == 1 ? "" : "s"), \(tokens) access token\(tokens == 1 ? "" : "s"), "
                + "\(entries) entr\(entries == 1 ? "y" : "ies") (\(trashed) in the trash)"
                + (photos == 0 ? "" : ", \(photos) photo\(photos == 1 ? "" : "s")")
        }
    }
}

/// Why an installation could not be written.
public enum InstallationError: Error, Equatable, CustomStringConvertible {
    /// The destination already holds accounts or entries: a copy never merges.
    case notEmpty(String)
    /// After writing, the destination did not hold what was read: nothing was kept.
    case countsDiffer(expected: Installation.Counts, found: Installation.Counts)

    public var description: String {
        switch self {
        case .notEmpty(let location):
            "\(location) already holds accounts or entries; a copy goes only into an empty database. Choose a new file or an empty database."
        case .countsDiffer(let expected, let found):
            "The copy did not hold what was read (read \(expected), found \(found)); nothing was kept."
        }
    }
}
