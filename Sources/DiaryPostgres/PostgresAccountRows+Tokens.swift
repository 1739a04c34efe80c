import DiaryCore
import Foundation
import Logging
import PostgresNIO

extension PostgresAccountRows {
    func insertToken(named name: String, tokenHash: String, user: UserID, at: Date) async throws {
        guard Self.storable(name) else { throw AccountError.badName(name) }
        try await database.withTransaction { [logger] connection in
            let rows = try await connection.query("""
                INSERT INTO access_token (user_id, name, token_hash, created_at)
                VALUES (\(user.rawValue), \(name), \(tokenHash), \(at.millisecondsSince1970))
                ON CONFLICT (user_id, name) DO NOTHING RETURNING id
                """, logger: logger)
            guard try await Self.count(rows) == 1 else { throw AccountError.tokenNameTaken(name) }
        }
    }

    func tokens(of user: UserID) async throws -> [AccessTokenInfo] {
        try await database.withConnection { [logger] connection in
            var tokens: [AccessTokenInfo] = []
            let rows = try await connection.query(
                "SELECT name, created_at, last_used_at FROM access_token WHERE user_id = \(user.rawValue) ORDER BY name", logger: logger)
            for try await (name, created, lastUsed) in rows.decode((String, Int64, Int64?).self) {
                tokens.append(AccessTokenInfo(name: name, createdAt: Date(millisecondsSince1970: created),
                                              lastUsedAt: lastUsed.map(Date.init(millisecondsSince1970:))))
            }
            return tokens
        }
    }

    func deleteToken(named name: String, of user: UserID) async throws -> Bool {
        guard Self.storable(name) else { return false }
        let deleted = try await database.withConnection { [logger] connection in
            try await Self.count(connection.query(
                "DELETE FROM access_token WHERE user_id = \(user.rawValue) AND name = \(name) RETURNING 1", logger: logger)) > 0
        }
        database.feed.loginsChanged()  // revoked here: at once, not when the notification comes back
        return deleted
    }

    /// Known without asking for a while when PostgreSQL's notifications are heard (`ChangeFeed`).
    func user(forTokenHash tokenHash: String) async throws -> User? {
        guard Self.storable(tokenHash) else { return nil }
        if let known = database.feed.login(tokenHash), known.session == nil { return known.user }
        let mark = database.feed.loginMark()
        return try await database.withConnection { [logger, feed = database.feed] connection in
            let rows = try await connection.query("""
                SELECT u.id, u.name, u.created_at FROM access_token t JOIN diary_user u ON u.id = t.user_id WHERE t.token_hash = \(tokenHash)
                """, logger: logger)
            for try await (id, name, created) in rows.decode((Int64, String, Int64).self) {
                let user = Self.user(id, name, created)
                feed.found(login: .init(user: user, session: nil, keptAt: .now), for: tokenHash, since: mark)
                return user
            }
            return nil
        }
    }
}
