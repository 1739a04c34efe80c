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

    /// Takes a place for one login attempt, before its password is checked: counts the attempts
    /// recorded for each of `subjects` ("name:…", "address:…") in the last `window` and, if every
    /// count is below `allowed`, records this one, all in one write. Attempts that arrive together
    /// are counted one after another, so at most `allowed` passwords are ever tried per window
    /// (checking first and recording after bcrypt let 50 parallel guesses all be tried).
    /// `nil` when the attempt is refused.
    public func reserveLoginAttempt(_ subjects: [String], allowed: Int, within window: TimeInterval,
                                    now: Date = Date()) async throws -> LoginAttempt? {
        let at = now.millisecondsSince1970
        let since = now.addingTimeInterval(-window).millisecondsSince1970
        return try await database.write { db in
            for subject in subjects {
                let recent = try Int.fetchOne(db, sql: "SELECT count(*) FROM login_failure WHERE subject = ? AND at > ?",
                                              arguments: [subject, since]) ?? 0
                if recent >= allowed { return nil }
            }
            var rows: [Int64] = []
            for subject in subjects {
                try db.execute(sql: "INSERT INTO login_failure (subject, at) VALUES (?, ?)", arguments: [subject, at])
                rows.append(db.lastInsertedRowID)
            }
            // Old attempts say nothing any more.
            try db.execute(sql: "DELETE FROM login_failure WHERE at < ?", arguments: [at - 24 * 3_600_000])
            return LoginAttempt(rows: rows)
        }
    }

    /// A login that succeeded does not count: its own place is given back. The failures before
    /// it still count, so someone with an account of their own cannot clear their address's
    /// failures by logging in to it between guesses.
    public func loginSucceeded(_ attempt: LoginAttempt) async throws {
        try await database.write { db in
            for row in attempt.rows { try db.execute(sql: "DELETE FROM login_failure WHERE rowid = ?", arguments: [row]) }
        }
    }
}

/// A login attempt counted by the throttle (see `reserveLoginAttempt`); it stays counted as a
/// failure unless `loginSucceeded` gives it back.
public struct LoginAttempt: Sendable {
    let rows: [Int64]
}
