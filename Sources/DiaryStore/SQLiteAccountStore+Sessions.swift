import DiaryCore
import Foundation
import GRDB

/// A logged-in browser: whose it is, and the token its state-changing requests must echo.
public struct Session: Sendable, Equatable {
    public var user: User
    public var csrfToken: String
}

extension SQLiteAccountStore {
    /// Starts a session; the token goes in the cookie and is stored only hashed.
    public func startSession(for user: User) async throws -> (token: String, session: Session) {
        let token = RandomToken.make()
        let csrf = RandomToken.make()
        let now = Date().millisecondsSince1970
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO session (token_hash, user_id, csrf_token, created_at, last_used_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [RandomToken.hash(token), user.id.rawValue, csrf, now, now])
        }
        return (token, Session(user: user, csrfToken: csrf))
    }

    /// The live session for a cookie's token. One unused for 30 days has ended; use keeps it
    /// alive (noted at most once a minute, so reading the diary is not a write per request).
    public func session(token: String, now: Date = Date()) async throws -> Session? {
        let hash = RandomToken.hash(token)
        let found = try await database.readStatement { db -> (Session, Int64)? in
            try db.cachedStatement(sql: """
                SELECT u.id, u.name, u.created_at, s.csrf_token, s.last_used_at
                FROM session s JOIN user u ON u.id = s.user_id WHERE s.token_hash = ?
                """).readFirstRow([.text(hash)]) { (Session(user: Self.user($0), csrfToken: $0.text(3)), $0.integer(4)) }
        }
        guard let (session, lastUsed) = found else { return nil }
        let nowMilliseconds = now.millisecondsSince1970
        if nowMilliseconds - lastUsed > Int64(Self.sessionLifetime * 1000) {
            try await endSession(token: token)
            return nil
        }
        if nowMilliseconds - lastUsed > 60_000 {
            try await database.write { db in
                try db.execute(sql: "UPDATE session SET last_used_at = ? WHERE token_hash = ?", arguments: [nowMilliseconds, hash])
            }
        }
        return session
    }

    public func endSession(token: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM session WHERE token_hash = ?", arguments: [RandomToken.hash(token)])
        }
    }

    // MARK: Login throttling

    /// Failed logins recorded for `subjects` ("name:…", "address:…") in the last `window`.
    public func recentLoginFailures(_ subjects: [String], within window: TimeInterval, now: Date = Date()) async throws -> Int {
        let since = now.addingTimeInterval(-window).millisecondsSince1970
        return try await database.read { db in
            try subjects.map { subject in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM login_failure WHERE subject = ? AND at > ?", arguments: [subject, since]) ?? 0
            }.max() ?? 0
        }
    }

    public func recordLoginFailure(_ subjects: [String], now: Date = Date()) async throws {
        let at = now.millisecondsSince1970
        try await database.write { db in
            for subject in subjects {
                try db.execute(sql: "INSERT INTO login_failure (subject, at) VALUES (?, ?)", arguments: [subject, at])
            }
            // Old failures say nothing any more.
            try db.execute(sql: "DELETE FROM login_failure WHERE at < ?", arguments: [at - 24 * 3_600_000])
        }
    }
}
