import Crypto
import DiaryCore
import Foundation
import GRDB

/// Accounts, sessions and personal access tokens, kept in the diary file so that they survive a
/// restart and are shared by every server instance on the same file.
///
/// Passwords are kept only as bcrypt hashes; session and access tokens only as SHA-256 hashes
/// (they are 256 random bits, so a fast hash is enough and a lookup costs nothing).
public struct SQLiteAccountStore: Sendable {
    public let database: DiaryDatabase
    /// bcrypt's work factor: 12 unless tests lower it to keep suites fast.
    public let bcryptCost: UInt8

    /// A session ends after this long unused.
    public static let sessionLifetime: TimeInterval = 30 * 24 * 3600

    public init(database: DiaryDatabase, bcryptCost: UInt8 = 12) {
        self.database = database
        self.bcryptCost = bcryptCost
    }

    // MARK: Users

    public func userCount() async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM user") ?? 0 }
    }

    public func users() async throws -> [User] {
        try await database.read { db in try Row.fetchAll(db, sql: "SELECT id, name, created_at FROM user ORDER BY name").map { Self.user($0) } }
    }

    /// The account with this name in any spelling of it (see `User.nameKey`).
    public func user(named name: String) async throws -> User? {
        try await database.read { db in try Self.findUser(named: name, columns: "id, name, created_at", db).map { Self.user($0) } }
    }

    /// The row of the account named `name`: the one whose name is exactly that, else the one
    /// holding its key. Two accounts made before keys existed may share one (the migration
    /// "v5-user-name-keys" left the newer without it); each is still found by its own spelling.
    static func findUser(named name: String, columns: String, _ db: Database) throws -> Row? {
        try Row.fetchOne(db, sql: """
            SELECT \(columns) FROM user WHERE name = ?1 OR name_key = ?2 ORDER BY name = ?1 DESC, id LIMIT 1
            """, arguments: [name, User.nameKey(name)])
    }

    /// Adds an account. The first account adopts the entries written before any existed.
    /// With `onlyIfFirst`, refuses when an account exists already (the web's setup page).
    public func addUser(name: String, password: String, onlyIfFirst: Bool = false) async throws -> User {
        try User.checkName(name)
        try User.checkPassword(password)
        let hash = try await PasswordHashing.hash(password, cost: bcryptCost)
        let now = Date().millisecondsSince1970
        return try await database.write { db in
            let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM user") ?? 0
            if onlyIfFirst && existing > 0 { throw AccountError.alreadySetUp }
            // Kept as first written, for display; found, and kept unique, by its key.
            if try Self.findUser(named: name, columns: "id", db) != nil { throw AccountError.nameTaken(name) }
            try db.execute(sql: "INSERT INTO user (name, name_key, password_hash, created_at) VALUES (?, ?, ?, ?)",
                           arguments: [name, User.nameKey(name), hash, now])
            let id = UserID(rawValue: db.lastInsertedRowID)
            if existing == 0 {
                try db.execute(sql: "UPDATE entry SET owner_id = ? WHERE owner_id = ?", arguments: [id.rawValue, UserID.localOwner.rawValue])
                try ChangeCount.moved(id, db)
                try ChangeCount.moved(.localOwner, db)
            }
            return User(id: id, name: name, createdAt: Date(millisecondsSince1970: now))
        }
    }

    /// What changing a password ended.
    public struct PasswordChange: Sendable, Equatable {
        public var endedSessions: Int
        public var endedTokens: Int
    }

    /// Changes a password and ends every session and every access token of that user, in the
    /// same transaction: whoever knew the old password may have logged in or made a token with
    /// it, and a new password must shut them out.
    @discardableResult
    public func setPassword(name: String, password: String) async throws -> PasswordChange {
        try User.checkPassword(password)
        let hash = try await PasswordHashing.hash(password, cost: bcryptCost)
        return try await database.write { db in
            guard let id: Int64 = try Self.findUser(named: name, columns: "id", db)?["id"] else {
                throw AccountError.noSuchUser(name)
            }
            try db.execute(sql: "UPDATE user SET password_hash = ? WHERE id = ?", arguments: [hash, id])
            try db.execute(sql: "DELETE FROM session WHERE user_id = ?", arguments: [id])
            let sessions = db.changesCount
            try db.execute(sql: "DELETE FROM access_token WHERE user_id = ?", arguments: [id])
            return PasswordChange(endedSessions: sessions, endedTokens: db.changesCount)
        }
    }

    /// The user whose name and password these are, or `nil`. An unknown name costs the same
    /// bcrypt work as a known one, so timing does not tell whether a name exists.
    public func verify(name: String, password: String) async throws -> User? {
        let found = try await database.read { db -> (User, String)? in
            try Self.findUser(named: name, columns: "id, name, created_at, password_hash", db)
                .map { (Self.user($0), $0["password_hash"] as String) }
        }
        let matches = try await PasswordHashing.verify(password, hash: found?.1)
        guard let found, matches else { return nil }
        return found.0
    }

    /// A user from a row that starts with `id, name, created_at`.
    static func user(_ row: some ColumnValues) -> User {
        User(id: UserID(rawValue: row.integer(0)), name: row.text(1), createdAt: Date(millisecondsSince1970: row.integer(2)))
    }
}

/// 256 random bits, URL-safe: tokens for sessions, CSRF and API clients.
enum RandomToken {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// SHA-256 in lower-case hex: what the database keeps instead of the token. Hex by table,
    /// not `String(format:)`, which cost more than the hash itself on every request.
    static func hash(_ token: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Array(token.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
