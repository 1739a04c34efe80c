import DiaryCore
import Foundation
import GRDB

/// Accounts, sessions, personal access tokens and login throttles in the diary file, so that
/// they survive a restart and are shared by every server instance on the same file. It keeps
/// what `Accounts` hands it: password hashes and the SHA-256 of tokens, never a secret.
public struct SQLiteAccountRows: AccountRows {
    public let database: SQLiteDatabase

    public init(database: SQLiteDatabase) {
        self.database = database
    }

    // MARK: Users

    public func userCount() async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM user") ?? 0 }
    }

    public func users() async throws -> [User] {
        try await database.read { db in try Row.fetchAll(db, sql: "SELECT id, name, created_at FROM user ORDER BY name_key, id").map { Self.user($0) } }
    }

    public func user(named name: String, key: String) async throws -> (user: User, passwordHash: String)? {
        try await database.read { db in
            try Self.findUser(named: name, key: key, columns: "id, name, created_at, password_hash", db)
                .map { (Self.user($0), $0["password_hash"] as String) }
        }
    }

    /// The row of the account named `name`: the one whose name is exactly that, else the one
    /// holding its key. Two accounts made before keys existed may share one (the migration
    /// "v5-user-name-keys" left the newer without it); each is still found by its own spelling.
    static func findUser(named name: String, key: String, columns: String, _ db: Database) throws -> Row? {
        try Row.fetchOne(db, sql: """
            SELECT \(columns) FROM user WHERE name = ?1 OR name_key = ?2 ORDER BY name = ?1 DESC, id LIMIT 1
            """, arguments: [name, key])
    }

    public func insertUser(name: String, key: String, passwordHash: String, createdAt: Date, onlyIfFirst: Bool) async throws -> User {
        let now = createdAt.millisecondsSince1970
        return try await database.write { db in
            let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM user") ?? 0
            if onlyIfFirst && existing > 0 { throw AccountError.alreadySetUp }
            if try Self.findUser(named: name, key: key, columns: "id", db) != nil { throw AccountError.nameTaken(name) }
            try db.execute(sql: "INSERT INTO user (name, name_key, password_hash, created_at) VALUES (?, ?, ?, ?)",
                           arguments: [name, key, passwordHash, now])
            let id = UserID(rawValue: db.lastInsertedRowID)
            if existing == 0 {
                try db.execute(sql: "UPDATE entry SET owner_id = ? WHERE owner_id = ?", arguments: [id.rawValue, UserID.localOwner.rawValue])
                // The tags' index is by owner too: it goes with the entries.
                try db.execute(sql: "UPDATE entry_tag SET owner_id = ? WHERE owner_id = ?", arguments: [id.rawValue, UserID.localOwner.rawValue])
                try ChangeCount.moved(id, db)
                try ChangeCount.moved(.localOwner, db)
            }
            return User(id: id, name: name, createdAt: Date(millisecondsSince1970: now))
        }
    }

    public func setPasswordHash(_ hash: String, ofUserNamed name: String, key: String, keepingSession: String?) async throws -> PasswordChange {
        try await database.write { db in
            guard let id: Int64 = try Self.findUser(named: name, key: key, columns: "id", db)?["id"] else {
                throw AccountError.noSuchUser(name)
            }
            try db.execute(sql: "UPDATE user SET password_hash = ? WHERE id = ?", arguments: [hash, id])
            try db.execute(sql: "DELETE FROM session WHERE user_id = ? AND token_hash IS NOT ?", arguments: [id, keepingSession])
            let sessions = db.changesCount
            try db.execute(sql: "DELETE FROM access_token WHERE user_id = ?", arguments: [id])
            return PasswordChange(endedSessions: sessions, endedTokens: db.changesCount)
        }
    }

    /// A user from a row that starts with `id, name, created_at`.
    static func user(_ row: some ColumnValues) -> User {
        User(id: UserID(rawValue: row.integer(0)), name: row.text(1), createdAt: Date(millisecondsSince1970: row.integer(2)))
    }
}
