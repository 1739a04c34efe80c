import DiaryCore
import Foundation
import GRDB

/// A personal access token as listed: never the token itself, which is shown once.
public struct AccessTokenInfo: Sendable, Equatable {
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?
}

extension SQLiteAccountStore {
    /// Issues a token for API clients (`Authorization: Bearer …`). Returned once; stored hashed.
    public func createToken(named name: String, for user: User) async throws -> String {
        try User.checkName(name)
        let token = "diary_" + RandomToken.make()
        let now = Date().millisecondsSince1970
        try await database.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM access_token WHERE user_id = ? AND name = ?", arguments: [user.id.rawValue, name]) == true {
                throw AccountError.tokenNameTaken(name)
            }
            try db.execute(
                sql: "INSERT INTO access_token (user_id, name, token_hash, created_at) VALUES (?, ?, ?, ?)",
                arguments: [user.id.rawValue, name, RandomToken.hash(token), now])
        }
        return token
    }

    public func tokens(of user: User) async throws -> [AccessTokenInfo] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT name, created_at, last_used_at FROM access_token WHERE user_id = ? ORDER BY name",
                             arguments: [user.id.rawValue]).map { row in
                AccessTokenInfo(name: row["name"], createdAt: Date(millisecondsSince1970: row["created_at"]),
                                lastUsedAt: (row["last_used_at"] as Int64?).map(Date.init(millisecondsSince1970:)))
            }
        }
    }

    public func revokeToken(named name: String, of user: User) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM access_token WHERE user_id = ? AND name = ?", arguments: [user.id.rawValue, name])
            if db.changesCount == 0 { throw AccountError.noSuchToken(name) }
        }
    }

    /// The user a bearer token belongs to, or `nil` for an unknown or revoked one.
    public func user(forToken token: String) async throws -> User? {
        let hash = RandomToken.hash(token)
        return try await database.readStatement { db in
            // Every API request asks this: the statement is prepared once per connection.
            try db.cachedStatement(sql: """
                SELECT u.id, u.name, u.created_at FROM access_token t JOIN user u ON u.id = t.user_id WHERE t.token_hash = ?
                """).readFirstRow([.text(hash)]) { Self.user($0) }
        }
    }
}
