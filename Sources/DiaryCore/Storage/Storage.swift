import Foundation

/// Everything Diary keeps, in one configured database: each user's diary, its photos, and the
/// accounts.
///
/// `DiaryBackends.open` turns the configured database (a file's path, or a `postgres://` URL)
/// into one of these; the server and the command line see nothing else of it. A new backend
/// implements this, `EntryRows`, `PhotoRows` and `AccountRows`, and joins the
/// conformance suites' list of backends (`Tests/DiaryStoreTests/StoreBackend.swift`).
public protocol Storage: Sendable {
    /// The rows of one user's diary (`UserID.localOwner`'s before any account exists).
    func entryRows(of owner: UserID) -> any EntryRows

    /// The photos of one user's diary.
    func photoRows(of owner: UserID) -> any PhotoRows

    /// Users, sessions, access tokens and login throttles.
    var accountRows: any AccountRows { get }

    /// Does what the database needs done in the background while a server uses it (SQLite's
    /// checkpoints), until the task is cancelled; returns at once when there is nothing to do.
    func maintain() async

    /// Everything worth moving (see `Installation`), read in one consistent snapshot while
    /// writers go on.
    func readInstallation() async throws -> Installation

    /// Writes `installation` into this storage, which must hold no account and no entry
    /// (`InstallationError.notEmpty`), in one transaction that ends by counting what it wrote:
    /// all of it, or (on any error, `InstallationError.countsDiffer` included) nothing. Accounts
    /// keep their ids, entries their versions and trash.
    func writeInstallation(_ installation: Installation) async throws

    /// Deletes for good, in every diary, the entries moved to the trash before `moment`, and then
    /// the photos no entry holds that were stored before `DiaryPhotos.unusedGrace`; how many
    /// entries. What the server does every so often, so the trash empties itself.
    func emptyTrashes(deletedBefore moment: Date) async throws -> Int

    /// Where the data is, for its operator: a file's path, a URL without its password. Never
    /// sent to a client.
    var location: String { get }
}

extension Storage {
    /// One user's diary, with its rules.
    public func diary(of owner: UserID) -> Diary {
        Diary(rows: entryRows(of: owner), photos: photoRows(of: owner))
    }

    /// One user's photos, with their rules; `quotaBytes` bounds what they take together.
    public func photos(of owner: UserID, quotaBytes: Int64? = nil) -> DiaryPhotos {
        DiaryPhotos(rows: photoRows(of: owner), quotaBytes: quotaBytes)
    }

    /// The accounts, with their rules; passwords hashed by `passwords`.
    public func accounts(passwords: any PasswordHasher) -> Accounts {
        Accounts(rows: accountRows, passwords: passwords)
    }
}

/// A failure of the storage itself (not of what was asked of it), as a backend reports it.
/// Its `description` is for the operator (it may name the file and the option that chose it);
/// a client of the server is told only `kind.messageForClients`.
public protocol StorageFailure: Error, CustomStringConvertible {
    /// What kind of failure it is: all a client of the server is told.
    var kind: StorageFailureKind { get }
}

/// What a client of the server may learn about a storage failure: what happened, what to do.
public enum StorageFailureKind: Sendable, Equatable {
    /// Another long write holds the database; the same request may go through in a moment.
    case busy
    /// The storage refuses writes (a read-only file or folder, a read-only replica).
    case readOnly
    /// No room left: the write was rolled back whole.
    case full
    /// The database cannot be reached or used just now.
    case unavailable

    public var messageForClients: String {
        switch self {
        case .busy:
            "The diary is busy with another long write; try again in a moment."
        case .readOnly:
            "The server cannot write to the diary just now (its storage is read-only); nothing was changed. Tell whoever runs it."
        case .full:
            "The server's disk is full: this change was not saved, and everything saved before is intact. Try again once there is room."
        case .unavailable:
            "The server cannot reach the diary's storage just now; nothing was changed. Try again later, or tell whoever runs it."
        }
    }
}
