import DiaryCore
import Foundation
import Logging
import PostgresNIO

/// Accounts, sessions, access tokens and login throttles in PostgreSQL, shared by every
/// `diary serve` in front of it. Names are compared byte for byte (`COLLATE "C"`), as SQLite
/// compares them; a name no account could have (one holding a NUL, which PostgreSQL's text
/// cannot) is simply not found.
struct PostgresAccountRows: AccountRows {
    let database: PostgresDatabase

    var logger: Logger { database.logger }

    // MARK: Users

    func userCount() async throws -> Int {
        try await database.withConnection { [logger] connection in
            for try await count in try await connection.query("SELECT count(*) FROM diary_user", logger: logger).decode(Int64.self) {
                return Int(count)
            }
            return 0
        }
    }

    func users() async throws -> [User] {
        try await database.withConnection { [logger] connection in
            var users: [User] = []
            let rows = try await connection.query("SELECT id, name, created_at FROM diary_user ORDER BY name_key, id", logger: logger)
            for try await (id, name, created) in rows.decode((Int64, String, Int64).self) { users.append(Self.user(id, name, created)) }
            return users
        }
    }

    func user(named name: String, key: String) async throws -> (user: User, passwordHash: String)? {
        guard Self.storable(name), Self.storable(key) else { return nil }
        return try await database.withConnection { [logger] connection in
            try await Self.findUser(named: name, key: key, connection, logger)
        }
    }

    /// The account named exactly `name`, else the one holding its key.
    private static func findUser(named name: String, key: String, locking: Bool = false, _ connection: PostgresConnection,
                                 _ logger: Logger) async throws -> (user: User, passwordHash: String)? {
        let rows = try await connection.query("""
            SELECT id, name, created_at, password_hash FROM diary_user WHERE name = \(name) OR name_key = \(key)
            ORDER BY (name = \(name)) DESC, id LIMIT 1\(unescaped: locking ? " FOR UPDATE" : "")
            """, logger: logger)
        for try await (id, found, created, hash) in rows.decode((Int64, String, Int64, String).self) {
            return (user(id, found, created), hash)
        }
        return nil
    }

    func insertUser(name: String, key: String, passwordHash: String, createdAt: Date, onlyIfFirst: Bool) async throws -> User {
        guard Self.storable(name), Self.storable(key) else { throw AccountError.badName(name) }
        let now = createdAt.millisecondsSince1970
        let (user, moved) = try await database.withTransaction { [logger] connection in
            // One account is made at a time: "only the first" and "the first adopts the local
            // diary" must see every account made before.
            try await connection.query("LOCK TABLE diary_user IN SHARE ROW EXCLUSIVE MODE", logger: logger)
            var existing = 0
            for try await count in try await connection.query("SELECT count(*) FROM diary_user", logger: logger).decode(Int64.self) {
                existing = Int(count)
            }
            if onlyIfFirst && existing > 0 { throw AccountError.alreadySetUp }
            if try await Self.findUser(named: name, key: key, connection, logger) != nil { throw AccountError.nameTaken(name) }
            var id: Int64 = 0
            let rows = try await connection.query("""
                INSERT INTO diary_user (name, name_key, password_hash, created_at) VALUES (\(name), \(key), \(passwordHash), \(now))
                RETURNING id
                """, logger: logger)
            for try await inserted in rows.decode(Int64.self) { id = inserted }
            let user = UserID(rawValue: id)
            var moved: [(UserID, Int64)] = []
            if existing == 0 {
                try await connection.query("UPDATE entry SET owner_id = \(id) WHERE owner_id = \(UserID.localOwner.rawValue)", logger: logger)
                // The tags' index is by owner too: it goes with the entries (the trigger keeps
                // it in step with tags, moments and the trash, not with owners).
                try await connection.query("UPDATE entry_tag SET owner_id = \(id) WHERE owner_id = \(UserID.localOwner.rawValue)", logger: logger)
                moved.append((user, try await ChangeCount.moved(user, connection, logger)))
                moved.append((.localOwner, try await ChangeCount.moved(.localOwner, connection, logger)))
            }
            return (User(id: user, name: name, createdAt: Date(millisecondsSince1970: now)), moved)
        }
        for (owner, count) in moved { database.feed.wrote(owner, count: count) }  // committed now
        return user
    }

    func setPasswordHash(_ hash: String, ofUserNamed name: String, key: String, keepingSession: String?) async throws -> PasswordChange {
        guard Self.storable(name), Self.storable(key) else { throw AccountError.noSuchUser(name) }
        let change = try await database.withTransaction { [logger] connection in
            guard let (user, _) = try await Self.findUser(named: name, key: key, locking: true, connection, logger) else {
                throw AccountError.noSuchUser(name)
            }
            let id = user.id.rawValue
            try await connection.query("UPDATE diary_user SET password_hash = \(hash) WHERE id = \(id)", logger: logger)
            let kept = keepingSession ?? ""
            let sessions = try await Self.count(connection.query(
                "DELETE FROM session WHERE user_id = \(id) AND token_hash <> \(kept) RETURNING 1", logger: logger))
            let tokens = try await Self.count(connection.query("DELETE FROM access_token WHERE user_id = \(id) RETURNING 1", logger: logger))
            return PasswordChange(endedSessions: sessions, endedTokens: tokens)
        }
        database.feed.loginsChanged()  // committed: no login of this instance outlives it
        return change
    }

    static func count(_ rows: PostgresRowSequence) async throws -> Int {
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }

    static func user(_ id: Int64, _ name: String, _ created: Int64) -> User {
        User(id: UserID(rawValue: id), name: name, createdAt: Date(millisecondsSince1970: created))
    }

    /// Whether PostgreSQL's text can hold `text` (it cannot hold a NUL).
    static func storable(_ text: String) -> Bool {
        !text.utf8.contains(0)
    }
}
