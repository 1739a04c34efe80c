import Foundation

/// Accounts, sessions and personal access tokens: the rules, over whichever backend keeps them.
///
/// Passwords are kept only as hashes (`PasswordHasher`: bcrypt in the server); session and
/// access tokens only as their SHA-256 (`SecretToken`).
public struct Accounts: Sendable {
    public let rows: any AccountRows
    public let passwords: any PasswordHasher

    /// A session ends after this long unused.
    public static let sessionLifetime: TimeInterval = 30 * 24 * 3600
    /// Use of a session is noted at most this often, so reading the diary is not a write per request.
    static let sessionTouchInterval: TimeInterval = 60

    public init(rows: any AccountRows, passwords: any PasswordHasher) {
        self.rows = rows
        self.passwords = passwords
    }

    // MARK: Users

    public func userCount() async throws -> Int {
        try await rows.userCount()
    }

    public func users() async throws -> [User] {
        try await rows.users()
    }

    /// The account with this name in any spelling of it (see `User.nameKey`).
    public func user(named name: String) async throws -> User? {
        try await rows.user(named: name, key: User.nameKey(name))?.user
    }

    /// Adds an account. The first account adopts the entries written before any existed.
    /// With `onlyIfFirst`, refuses when an account exists already (the web's setup page).
    public func addUser(name: String, password: String, onlyIfFirst: Bool = false) async throws -> User {
        try User.checkName(name)
        try User.checkPassword(password)
        let hash = try await passwords.hash(password)
        // Kept as first written, for display; found, and kept unique, by its key.
        return try await rows.insertUser(name: name, key: User.nameKey(name), passwordHash: hash,
                                         createdAt: Date(millisecondsSince1970: Date().millisecondsSince1970), onlyIfFirst: onlyIfFirst)
    }

    /// Changes a password and ends every session and every access token of that user, in the
    /// same transaction: whoever knew the old password may have logged in or made a token with
    /// it, and a new password must shut them out.
    /// `keepingSession`: the token of the browser session that asked for the change, which stays
    /// logged in (its writer just proved they know the new password).
    @discardableResult
    public func setPassword(name: String, password: String, keepingSession token: String? = nil) async throws -> PasswordChange {
        try User.checkPassword(password)
        let hash = try await passwords.hash(password)
        return try await rows.setPasswordHash(hash, ofUserNamed: name, key: User.nameKey(name),
                                              keepingSession: token.map(SecretToken.hash))
    }

    /// The user whose name and password these are, or `nil`. An unknown name costs the same
    /// hashing work as a known one, so timing does not tell whether a name exists.
    public func verify(name: String, password: String) async throws -> User? {
        let found = try await rows.user(named: name, key: User.nameKey(name))
        let matches = try await passwords.verify(password, hash: found?.passwordHash)
        guard let found, matches else { return nil }
        return found.user
    }

    /// Signs in: checks the password and starts a session, which is kept only while the password
    /// is still the one checked. A password changed while this one was being checked (bcrypt
    /// takes a while) leaves no session behind: after a change returns, nothing made with the
    /// old password works, on any instance. `nil` for a wrong name or password, or one that has
    /// just changed.
    public func signIn(name: String, password: String, label: String = "") async throws -> (token: String, session: Session)? {
        let found = try await rows.user(named: name, key: User.nameKey(name))
        let matches = try await passwords.verify(password, hash: found?.passwordHash)
        guard let found, matches else { return nil }
        let token = SecretToken.make()
        let session = Session(user: found.user, csrfToken: SecretToken.make())
        guard try await rows.insertSession(tokenHash: SecretToken.hash(token), csrfToken: session.csrfToken, user: found.user.id,
                                           at: Date(), label: label, whilePasswordHashIs: found.passwordHash)
        else { return nil }
        return (token, session)
    }

    // MARK: Sessions

    /// Starts a session of an account whose password was not just checked (one just made);
    /// `signIn` is the way in with a password. The token goes in the cookie and is stored only hashed.
    /// `label` names the device ("Firefox · Android"), for the list of signed-in devices.
    public func startSession(for user: User, label: String = "") async throws -> (token: String, session: Session) {
        let token = SecretToken.make()
        let session = Session(user: user, csrfToken: SecretToken.make())
        try await rows.insertSession(tokenHash: SecretToken.hash(token), csrfToken: session.csrfToken, user: user.id, at: Date(),
                                     label: label)
        return (token, session)
    }

    /// The live session for a cookie's token. One unused for 30 days has ended; use keeps it
    /// alive (noted at most once a minute).
    public func session(token: String, now: Date = Date()) async throws -> Session? {
        let hash = SecretToken.hash(token)
        guard let (session, lastUsed) = try await rows.session(tokenHash: hash) else { return nil }
        let unused = now.timeIntervalSince(lastUsed)
        if unused > Self.sessionLifetime {
            try await rows.deleteSession(tokenHash: hash)
            return nil
        }
        if unused > Self.sessionTouchInterval { try await rows.touchSession(tokenHash: hash, at: now) }
        return session
    }

    public func endSession(token: String) async throws {
        try await rows.deleteSession(tokenHash: SecretToken.hash(token))
    }

    // MARK: Access tokens

    /// Issues a token for API clients (`Authorization: Bearer …`). Returned once; stored hashed.
    public func createToken(named name: String, for user: User) async throws -> String {
        try User.checkName(name)
        let token = "diary_" + SecretToken.make()
        try await rows.insertToken(named: name, tokenHash: SecretToken.hash(token), user: user.id, at: Date())
        return token
    }

    public func tokens(of user: User) async throws -> [AccessTokenInfo] {
        try await rows.tokens(of: user.id)
    }

    public func revokeToken(named name: String, of user: User) async throws {
        guard try await rows.deleteToken(named: name, of: user.id) else { throw AccountError.noSuchToken(name) }
    }

    /// The user a bearer token belongs to, or `nil` for an unknown or revoked one.
    public func user(forToken token: String) async throws -> User? {
        try await rows.user(forTokenHash: SecretToken.hash(token))
    }

    // MARK: Login throttling

    /// Takes a place for one login attempt, before its password is checked: counts the attempts
    /// recorded for each of `subjects` ("name:…", "address:…") in the last `window` and, if every
    /// count is below `allowed`, records this one, all in one write. Attempts that arrive together
    /// are counted one after another, so at most `allowed` passwords are ever tried per window
    /// (checking first and recording after the hash let 50 parallel guesses all be tried).
    /// `nil` when the attempt is refused.
    public func reserveLoginAttempt(_ subjects: [String], allowed: Int, within window: TimeInterval,
                                    now: Date = Date()) async throws -> LoginAttempt? {
        try await rows.reserveLoginAttempt(subjects, allowed: allowed, since: now.addingTimeInterval(-window), at: now)
    }

    /// A login that succeeded does not count: its own place is given back. The failures before
    /// it still count, so someone with an account of their own cannot clear their address's
    /// failures by logging in to it between guesses.
    public func loginSucceeded(_ attempt: LoginAttempt) async throws {
        try await rows.releaseLoginAttempt(attempt)
    }
}
