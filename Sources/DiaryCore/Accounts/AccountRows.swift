import Foundation

/// Accounts, sessions, access tokens and login throttles as a backend keeps them: rows read and
/// written, nothing decided (`Accounts` decides). Kept in the database, not in memory, so they
/// survive a restart and every server instance on the same database sees the same ones.
///
/// Secrets are never given to a backend: it keeps password hashes and the SHA-256 of tokens.
public protocol AccountRows: Sendable {
    /// How many accounts there are.
    func userCount() async throws -> Int

    /// Every account, ordered by name key (see `User.nameKey`): case does not count.
    func users() async throws -> [User]

    /// The account whose name is exactly `name`, else the one whose name key is `key` (two
    /// accounts made before keys existed may share one), with its password hash.
    func user(named name: String, key: String) async throws -> (user: User, passwordHash: String)?

    /// Adds an account, in one transaction: refused with `AccountError.nameTaken` when an account
    /// has this name or key, and with `AccountError.alreadySetUp` when `onlyIfFirst` and any
    /// account exists. The first account takes over the entries of `UserID.localOwner`
    /// (moving both diaries' change counts).
    func insertUser(name: String, key: String, passwordHash: String, createdAt: Date, onlyIfFirst: Bool) async throws -> User

    /// Replaces the password hash of the account `user(named:key:)` finds, and ends every session
    /// and access token of it but the session kept under `keepingSession` (the browser that
    /// changed it), in one transaction; `AccountError.noSuchUser` when there is none.
    func setPasswordHash(_ hash: String, ofUserNamed name: String, key: String, keepingSession: String?) async throws -> PasswordChange

    /// Keeps a new session of `user`, found again by `tokenHash`; `label` names the device it
    /// began on ("Firefox · Android", from its User-Agent), or is empty. With `passwordHash`, only
    /// while it is still the account's (the password checked to sign in): a change of password
    /// that commits before this, or that this waits for, leaves no session; one that comes after
    /// ends it as it ends the others. `false` when nothing was kept.
    func insertSession(tokenHash: String, csrfToken: String, user: UserID, at: Date, label: String,
                       whilePasswordHashIs passwordHash: String?) async throws -> Bool

    /// Every session of `user` kept (ended or not by time: `Accounts` decides), in no order.
    func sessions(of user: UserID) async throws -> [SessionRow]

    /// The session kept under `tokenHash` (with its user as it is now) and when it was last used.
    func session(tokenHash: String) async throws -> (session: Session, lastUsed: Date)?

    /// Notes that the session was used at `at`.
    func touchSession(tokenHash: String, at: Date) async throws

    /// Ends the session (no error when there is none).
    func deleteSession(tokenHash: String) async throws

    /// Keeps a new access token of `user`; `AccountError.tokenNameTaken` when `user` has one of that name.
    func insertToken(named name: String, tokenHash: String, user: UserID, at: Date) async throws

    /// The access tokens of `user`, ordered by name: never the tokens themselves.
    func tokens(of user: UserID) async throws -> [AccessTokenInfo]

    /// Deletes `user`'s token of that name; `false` when there was none.
    func deleteToken(named name: String, of user: UserID) async throws -> Bool

    /// The user whose access token hashes to `tokenHash`; `nil` for none (or a revoked one).
    func user(forTokenHash tokenHash: String) async throws -> User?

    /// In one write: counts the attempts recorded for each of `subjects` since `since` and, if
    /// every count is below `allowed`, records one for each at `at` (forgetting those a day
    /// old). Attempts arriving together are counted one after another. `nil` when refused.
    func reserveLoginAttempt(_ subjects: [String], allowed: Int, since: Date, at: Date) async throws -> LoginAttempt?

    /// Forgets the attempts `reserveLoginAttempt` recorded (a login that succeeded).
    func releaseLoginAttempt(_ attempt: LoginAttempt) async throws
}

extension AccountRows {
    /// Keeps a new session of `user` whatever its password is now.
    public func insertSession(tokenHash: String, csrfToken: String, user: UserID, at: Date, label: String) async throws {
        _ = try await insertSession(tokenHash: tokenHash, csrfToken: csrfToken, user: user, at: at, label: label, whilePasswordHashIs: nil)
    }
}

/// A logged-in browser: whose it is, and the token its state-changing requests must echo.
public struct Session: Sendable, Equatable {
    public var user: User
    public var csrfToken: String

    public init(user: User, csrfToken: String) {
        self.user = user
        self.csrfToken = csrfToken
    }
}

/// A session as a backend keeps it, for the list of signed-in devices. The hash stays above
/// the backends: clients name a session by `SessionInfo.id`.
public struct SessionRow: Sendable, Equatable {
    public var tokenHash: String
    public var label: String
    public var createdAt: Date
    public var lastUsedAt: Date

    public init(tokenHash: String, label: String, createdAt: Date, lastUsedAt: Date) {
        self.tokenHash = tokenHash
        self.label = label
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// A personal access token as listed: never the token itself, which is shown once.
public struct AccessTokenInfo: Sendable, Equatable {
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(name: String, createdAt: Date, lastUsedAt: Date?) {
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// A login attempt counted by the throttle (see `Accounts.reserveLoginAttempt`); it stays
/// counted as a failure unless `Accounts.loginSucceeded` gives it back.
public struct LoginAttempt: Sendable, Equatable {
    /// The backend's own names for the attempts it recorded.
    public let recorded: [Int64]

    public init(recorded: [Int64]) {
        self.recorded = recorded
    }
}

/// What changing a password ended.
public struct PasswordChange: Sendable, Equatable {
    public var endedSessions: Int
    public var endedTokens: Int

    public init(endedSessions: Int, endedTokens: Int) {
        self.endedSessions = endedSessions
        self.endedTokens = endedTokens
    }
}

/// How passwords are hashed: slowly, salted, by design (bcrypt in the server).
public protocol PasswordHasher: Sendable {
    /// A new salted hash of `password`.
    func hash(_ password: String) async throws -> String

    /// Whether `password` is the one hashed in `hash`. With no hash (an unknown name), the same
    /// work is done against a password no one has, so timing does not tell whether a name exists.
    func verify(_ password: String, hash: String?) async throws -> Bool
}
