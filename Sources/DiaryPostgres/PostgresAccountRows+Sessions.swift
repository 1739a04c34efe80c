import DiaryCore
import Foundation
import Logging
import PostgresNIO

extension PostgresAccountRows {
    /// One statement that reads the account's row FOR SHARE: a change of password holds the row
    /// until it commits, so this waits for it and then reads the new hash (no session); or this
    /// comes first, and the change, waiting for it, then ends this session with the others.
    func insertSession(tokenHash: String, csrfToken: String, user: UserID, at: Date, label: String,
                       whilePasswordHashIs passwordHash: String?) async throws -> Bool {
        let now = at.millisecondsSince1970
        let label = Self.storable(label) ? label : ""
        return try await database.withConnection { [logger] connection in
            let rows = try await connection.query("""
                WITH proved AS (
                    SELECT id FROM diary_user WHERE id = \(user.rawValue) AND (\(passwordHash)::text IS NULL OR password_hash = \(passwordHash))
                    FOR SHARE)
                INSERT INTO session (token_hash, user_id, csrf_token, created_at, last_used_at, label)
                SELECT \(tokenHash), id, \(csrfToken), \(now), \(now), \(label) FROM proved
                RETURNING 1
                """, logger: logger)
            for try await _ in rows { return true }
            return false
        }
    }

    func sessions(of user: UserID) async throws -> [SessionRow] {
        try await database.withConnection { [logger] connection in
            var sessions: [SessionRow] = []
            let rows = try await connection.query(
                "SELECT token_hash, label, created_at, last_used_at FROM session WHERE user_id = \(user.rawValue)", logger: logger)
            for try await (hash, label, created, lastUsed) in rows.decode((String, String, Int64, Int64).self) {
                sessions.append(SessionRow(tokenHash: hash, label: label, createdAt: Date(millisecondsSince1970: created),
                                           lastUsedAt: Date(millisecondsSince1970: lastUsed)))
            }
            return sessions
        }
    }

    /// Known without asking for a while when PostgreSQL's notifications are heard (`ChangeFeed`).
    func session(tokenHash: String) async throws -> (session: Session, lastUsed: Date)? {
        guard Self.storable(tokenHash) else { return nil }
        if let known = database.feed.login(tokenHash), let session = known.session {
            return (Session(user: known.user, csrfToken: session.csrfToken), session.lastUsed)
        }
        let mark = database.feed.loginMark()
        return try await database.withConnection { [logger, feed = database.feed] connection in
            let rows = try await connection.query("""
                SELECT u.id, u.name, u.created_at, s.csrf_token, s.last_used_at
                FROM session s JOIN diary_user u ON u.id = s.user_id WHERE s.token_hash = \(tokenHash)
                """, logger: logger)
            for try await (id, name, created, csrf, lastUsed) in rows.decode((Int64, String, Int64, String, Int64).self) {
                let user = Self.user(id, name, created), lastUsed = Date(millisecondsSince1970: lastUsed)
                feed.found(login: .init(user: user, session: (csrf, lastUsed), keptAt: .now), for: tokenHash, since: mark)
                return (Session(user: user, csrfToken: csrf), lastUsed)
            }
            return nil
        }
    }

    func touchSession(tokenHash: String, at: Date) async throws {
        guard Self.storable(tokenHash) else { return }
        try await database.withConnection { [logger] connection in
            try await connection.query(
                "UPDATE session SET last_used_at = \(at.millisecondsSince1970) WHERE token_hash = \(tokenHash)", logger: logger)
        }
        database.feed.touched(tokenHash, at: at)
    }

    func deleteSession(tokenHash: String) async throws {
        guard Self.storable(tokenHash) else { return }
        try await database.withConnection { [logger] connection in
            try await connection.query("DELETE FROM session WHERE token_hash = \(tokenHash)", logger: logger)
        }
        database.feed.loginsChanged()  // ended here: at once, not when the notification comes back
    }

    // MARK: Login throttling

    func reserveLoginAttempt(_ subjects: [String], allowed: Int, since: Date, at: Date) async throws -> LoginAttempt? {
        let at = at.millisecondsSince1970, since = since.millisecondsSince1970
        return try await database.withTransaction { [logger] connection in
            // Attempts arriving together, at any instance, are counted one after another.
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresMigrations.lockKey &- 1))", logger: logger)
            for subject in subjects {
                let rows = try await connection.query(
                    "SELECT count(*) FROM login_failure WHERE subject = \(ByteBuffer(string: subject)) AND at > \(since)", logger: logger)
                for try await recent in rows.decode(Int64.self) where recent >= allowed { return nil }
            }
            var recorded: [Int64] = []
            for subject in subjects {
                let rows = try await connection.query(
                    "INSERT INTO login_failure (subject, at) VALUES (\(ByteBuffer(string: subject)), \(at)) RETURNING id", logger: logger)
                for try await id in rows.decode(Int64.self) { recorded.append(id) }
            }
            // Old attempts say nothing any more.
            try await connection.query("DELETE FROM login_failure WHERE at < \(at - 24 * 3_600_000)", logger: logger)
            return LoginAttempt(recorded: recorded)
        }
    }

    func releaseLoginAttempt(_ attempt: LoginAttempt) async throws {
        try await database.withConnection { [logger] connection in
            try await connection.query("DELETE FROM login_failure WHERE id = ANY(\(attempt.recorded))", logger: logger)
        }
    }
}
