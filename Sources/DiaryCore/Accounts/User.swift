import Foundation

/// Whose diary an entry belongs to.
public struct UserID: RawRepresentable, Hashable, Sendable, Codable {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// The owner of entries written before any account existed (with the command line, say).
    /// The first account made adopts them.
    public static let localOwner = UserID(rawValue: 0)
}

/// Someone with an account: their diary is theirs alone.
public struct User: Hashable, Sendable {
    public var id: UserID
    public var name: String
    public var createdAt: Date

    public init(id: UserID, name: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }

    /// Names are 1–64 letters, digits, dots, dashes or underscores: easy to type at a login prompt.
    public static func checkName(_ name: String) throws(AccountError) {
        let allowed = name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" }
        guard (1...64).contains(name.count), allowed else { throw .badName(name) }
    }

    /// The form in which two names are the same name: NFKC, then Unicode's full case folding,
    /// then NFKC again (folding can undo a composition), as Unicode's NFKC_Casefold for
    /// identifiers. "Mina", "mina" and the full-width "Ｍｉｎａ", "é" typed as one character or as
    /// "e" and an accent, "STRASSE" and "straße" all have one key. Accounts are found by it, and no
    /// two accounts share one. `lowercased()` is not a full fold ("ß" stays), NFC alone leaves
    /// full-width letters apart, and SQLite's NOCASE folds ASCII alone.
    public static func nameKey(_ name: String) -> String {
        name.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive], locale: nil)
            .precomposedStringWithCompatibilityMapping
    }

    public static let minimumPasswordLength = 8

    public static func checkPassword(_ password: String) throws(AccountError) {
        guard password.count >= minimumPasswordLength else { throw .shortPassword(minimum: minimumPasswordLength) }
        guard password.utf8.count <= 72 else { throw .longPassword }
    }
}

/// What can go wrong with accounts, in words a person can act on.
public enum AccountError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    case badName(String)
    case shortPassword(minimum: Int)
    /// bcrypt reads only the first 72 bytes; a longer password would be silently cut.
    case longPassword
    case nameTaken(String)
    case noSuchUser(String)
    case alreadySetUp
    case noSuchToken(String)
    case tokenNameTaken(String)

    public var description: String {
        switch self {
        case .badName(let name):
            "\"\(name.prefix(70))\" cannot be a user name: use 1 to 64 letters, digits, dots, dashes or underscores."
        case .shortPassword(let minimum):
            "The password is too short: use at least \(minimum) characters."
        case .longPassword:
            "The password is too long: use at most 72 bytes."
        case .nameTaken(let name):
            "There is already a user called \(name): choose another name."
        case .noSuchUser(let name):
            "There is no user called \(name). See the users with: diary user list"
        case .alreadySetUp:
            "This diary already has an account: log in, or add users with: diary user add NAME"
        case .noSuchToken(let name):
            "There is no token called \(name). See the tokens with: diary token list"
        case .tokenNameTaken(let name):
            "There is already a token called \(name): choose another name, or revoke that one first."
        }
    }

    public var errorDescription: String? { description }

    /// The same, for a client of the server: no command to run on the server's computer.
    public var messageForClients: String {
        switch self {
        case .noSuchUser: "There is no such user."
        case .alreadySetUp: "This diary is set up already: log in instead."
        case .noSuchToken: "There is no such token."
        case .badName, .shortPassword, .longPassword, .nameTaken, .tokenNameTaken: description
        }
    }
}
