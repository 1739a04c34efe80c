import DiaryCore
import Foundation
import GRDB

extension SQLiteAccountRows {
    public func insertToken(named name: String, tokenHash: String, user: UserID, at: Date) async throws {
        try await database.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM access_token WHERE user_id = ? AND name = ?", arguments: [user.rawValue, name]) == true {
                throw AccountError.tokenNameTaken(name)
            }
            try db.execute(
                sql: "INSERT INTO access_token (user_id, name, token_hash, created_at) VALUES (?, ?, ?, ?)",
                arguments: [user.rawValue, name, tokenHash, at.millisecondsSince1970])
        }
    }

    public func tokens(of user: UserID) async throws -> [AccessTokenInfo] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT name, created_at, last_used_at FROM access_token WHERE user_id = ? ORDER BY name",
                             arguments: [user.rawValue]).map { row in
                AccessTokenInfo(name: row["name"], createdAt: Date(millisecondsSince1970: row["created_at"]),
                                lastUsedAt: (row["last_used_at"] as Int64?).map(Date.init(millisecondsSince1970:)))
            }
        }
    }

    public func deleteToken(named name: String, of user: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM access_token WHERE user_id = ? AND name = ?", arguments: [user.rawValue, name])
            return db.changesCount > 0
        }
    }

    public func user(forTokenHash tokenHash: String) async throws -> User? {
        try await database.readStatement { db in
            // Every API request asks this: the statement is prepared once per connection.
            try db.cachedStatement(sql: """
                SELECT u.id, u.name, u.created_at FROM access_token t JOIN user u ON u.id = t.user_id WHERE t.token_hash = ?
                """).readFirstRow([.text(tokenHash)]) { Self.user($0) }
        }
    }
}
