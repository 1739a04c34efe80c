import DiaryCore
import Foundation
import GRDB

extension SQLiteAccountRows {
    /// SQLite has one writer: a change of password comes wholly before or wholly after this.
    public func insertSession(tokenHash: String, csrfToken: String, user: UserID, at: Date, label: String,
                              whilePasswordHashIs passwordHash: String?) async throws -> Bool {
        let now = at.millisecondsSince1970
        return try await database.write { db in
            try db.execute(sql: """
                INSERT INTO session (token_hash, user_id, csrf_token, created_at, last_used_at, label)
                SELECT ?, id, ?, ?, ?, ? FROM user WHERE id = ? AND (?7 IS NULL OR password_hash = ?7)
                """, arguments: [tokenHash, csrfToken, now, now, label, user.rawValue, passwordHash])
            return db.changesCount > 0
        }
    }

    public func sessions(of user: UserID) async throws -> [SessionRow] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT token_hash, label, created_at, last_used_at FROM session WHERE user_id = ?",
                             arguments: [user.rawValue]).map { row in
                SessionRow(tokenHash: row["token_hash"], label: row["label"], createdAt: Date(millisecondsSince1970: row["created_at"]),
                           lastUsedAt: Date(millisecondsSince1970: row["last_used_at"]))
            }
        }
    }

    public func session(tokenHash: String) async throws -> (session: Session, lastUsed: Date)? {
        try await database.readStatement { db in
            // Every request of a browser asks this: the statement is prepared once per connection.
            try db.cachedStatement(sql: """
                SELECT u.id, u.name, u.created_at, s.csrf_token, s.last_used_at
                FROM session s JOIN user u ON u.id = s.user_id WHERE s.token_hash = ?
                """).readFirstRow([.text(tokenHash)]) {
                (Session(user: Self.user($0), csrfToken: $0.text(3)), Date(millisecondsSince1970: $0.integer(4)))
            }
        }
    }

    public func touchSession(tokenHash: String, at: Date) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE session SET last_used_at = ? WHERE token_hash = ?", arguments: [at.millisecondsSince1970, tokenHash])
        }
    }

    public func deleteSession(tokenHash: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM session WHERE token_hash = ?", arguments: [tokenHash])
        }
    }

    // MARK: Login throttling

    public func reserveLoginAttempt(_ subjects: [String], allowed: Int, since: Date, at: Date) async throws -> LoginAttempt? {
        let at = at.millisecondsSince1970, since = since.millisecondsSince1970
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
            return LoginAttempt(recorded: rows)
        }
    }

    public func releaseLoginAttempt(_ attempt: LoginAttempt) async throws {
        try await database.write { db in
            for row in attempt.recorded { try db.execute(sql: "DELETE FROM login_failure WHERE rowid = ?", arguments: [row]) }
        }
    }
}
