import DiaryCore
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// What this instance may know without asking PostgreSQL: each diary's change count, and who a
/// session cookie or an access token belongs to. PostgreSQL tells every instance the moment a
/// write commits (`LISTEN diary`: triggers on `diary_change`, `session`, `access_token` and
/// `diary_user` send `NOTIFY`), so a first page kept in memory is answered with no round trip
/// at all, and a request's login costs none either.
///
/// Known only while the listening connection is up: when it drops (PostgreSQL restarted, the
/// network gone), everything known is forgotten and every question goes to the database until
/// it listens again. A write of this instance is known at once (its statement returns the new
/// count; a session ended or a token revoked here forgets every login known), not when its
/// notification comes back; another instance's write is known when its notification arrives,
/// a fraction of a millisecond after it commits. A login known is asked again after a minute
/// (`loginLifetime`), so that nothing rests on a notification alone for long.
final class ChangeFeed: Sendable {
    /// A login found in the database, kept for a while.
    struct Login: Sendable {
        var user: User
        /// The session's CSRF token and last use; nil for an access token.
        var session: (csrfToken: String, lastUsed: Date)?
        var keptAt: ContinuousClock.Instant
    }

    private struct State {
        /// Up and listening since this generation began; 0 while not listening.
        var generation = 0
        var listening = false
        /// Moves with every notification about logins, and every login ended here.
        var loginEpoch = 0
        var counts: [Int64: Int64] = [:]
        var logins: [String: Login] = [:]
        var stopped = false
    }

    /// The channel the triggers notify on (PostgresMigrations, "v2-notify").
    static let channel = "diary"
    /// How long a login found in the database is used before it is asked for again.
    static let loginLifetime: Duration = .seconds(60)
    /// At most this many logins are kept (each a few hundred bytes); past it they are forgotten.
    static let loginsKept = 10_000
    /// How often the listening connection is checked (a query on it), and how long it may take.
    static let heartbeat: Duration = .seconds(1)

    private let state = Mutex(State())
    /// How many writes this instance has made (listening or not): `SearchIndexUpkeep` looks
    /// at it to know whether there is anything to tidy.
    let writesHere = Atomic<Int>(0)
    private let connect: @Sendable () async throws -> PostgresConnection
    private let logger: Logger

    init(logger: Logger, connect: @escaping @Sendable () async throws -> PostgresConnection) {
        self.logger = logger
        self.connect = connect
    }

    // MARK: Change counts

    /// The change count of `owner`'s diary, if known; nil: ask the database (and `found` it).
    func count(of owner: UserID) -> Int64? {
        state.withLock { $0.listening ? $0.counts[owner.rawValue] : nil }
    }

    /// A moment to pass to `found` with what is read from the database after it.
    func mark() -> Int {
        state.withLock { $0.listening ? $0.generation : 0 }
    }

    /// The count read from the database after `mark`: kept, if nothing was missed meanwhile.
    /// Counts only grow, so the larger of two is the newer; a count read is never newer than
    /// the database, and a notification of anything newer is on its way.
    func found(_ count: Int64, of owner: UserID, since mark: Int) {
        state.withLock { state in
            guard mark != 0, state.listening, state.generation == mark else { return }
            state.counts[owner.rawValue] = max(state.counts[owner.rawValue] ?? 0, count)
        }
    }

    /// This instance wrote to `owner`'s diary, which is now at `count` (or later).
    func wrote(_ owner: UserID, count: Int64) {
        writesHere.add(1, ordering: .relaxed)
        state.withLock { state in
            guard state.listening else { return }
            state.counts[owner.rawValue] = max(state.counts[owner.rawValue] ?? 0, count)
        }
    }

    // MARK: Logins

    /// The login of a token (a session's or an access token's hash), if known and recent.
    func login(_ tokenHash: String) -> Login? {
        state.withLock { state in
            guard state.listening, let login = state.logins[tokenHash] else { return nil }
            guard ContinuousClock.now - login.keptAt < Self.loginLifetime else {
                state.logins[tokenHash] = nil
                return nil
            }
            return login
        }
    }

    /// A moment to pass to `found(login:)` with what is read from the database after it.
    func loginMark() -> (generation: Int, epoch: Int) {
        state.withLock { ($0.listening ? $0.generation : 0, $0.loginEpoch) }
    }

    /// A login read from the database after `mark`: kept, unless a login ended meanwhile.
    func found(login: Login, for tokenHash: String, since mark: (generation: Int, epoch: Int)) {
        state.withLock { state in
            guard mark.generation != 0, state.listening, state.generation == mark.generation, state.loginEpoch == mark.epoch else { return }
            if state.logins.count >= Self.loginsKept { state.logins.removeAll() }
            state.logins[tokenHash] = login
        }
    }

    /// A session's use was noted in the database at `at`.
    func touched(_ tokenHash: String, at: Date) {
        state.withLock { state in
            guard state.logins[tokenHash]?.session != nil else { return }
            state.logins[tokenHash]?.session?.lastUsed = at
        }
    }

    /// A session ended, a token was revoked or a password changed, here or at another instance:
    /// every login known is forgotten, and one being read now is not kept.
    func loginsChanged() {
        state.withLock { state in
            state.loginEpoch &+= 1
            state.logins.removeAll()
        }
    }

    // MARK: Listening

    /// Listens until cancelled or `stop()`: connects, `LISTEN diary`, and on any failure forgets
    /// everything and connects again (at most once every half second).
    func run() async {
        while !Task.isCancelled, !state.withLock({ $0.stopped }) {
            do {
                let connection = try await connect()
                do {
                    try await listen(on: connection)
                } catch {
                    try? await connection.close()
                    throw error
                }
            } catch where !Task.isCancelled {
                logger.debug("Not listening to PostgreSQL's notifications: \(String(reflecting: error))")
            } catch {}
            forget()
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    func stop() {
        state.withLock { $0.stopped = true }
        forget()
    }

    private func listen(on connection: PostgresConnection) async throws {
        try await connection.listen(on: Self.channel) { notifications in
            // LISTEN is in effect once a query after it has answered: from then on nothing is missed.
            try await connection.query("SELECT 1", logger: logger)
            state.withLock { state in
                state.generation += 1
                state.listening = !state.stopped
                state.counts.removeAll()
                state.logins.removeAll()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { [self] in
                    for try await notification in notifications { heard(notification.payload) }
                    throw PostgresFailure(kind: .unavailable, "the notifications ended")
                }
                group.addTask { [self] in
                    // A connection that died without a word (a network gone) is found out here.
                    while true {
                        try await Task.sleep(for: Self.heartbeat)
                        if state.withLock({ $0.stopped }) { throw CancellationError() }
                        try await withThrowingTaskGroup(of: Void.self) { check in
                            check.addTask { try await connection.query("SELECT 1", logger: self.logger) }
                            check.addTask {
                                try await Task.sleep(for: Self.heartbeat)
                                throw PostgresFailure(kind: .unavailable, "the listening connection did not answer")
                            }
                            try await check.next()
                            check.cancelAll()
                        }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// A notification: "c OWNER COUNT" (a diary changed) or "a" (a login ended).
    private func heard(_ payload: String) {
        let parts = payload.split(separator: " ")
        if parts.first == "c", parts.count == 3, let owner = Int64(parts[1]), let count = Int64(parts[2]) {
            state.withLock { state in
                guard state.listening else { return }
                state.counts[owner] = max(state.counts[owner] ?? 0, count)
            }
        } else {
            loginsChanged()
        }
    }

    private func forget() {
        state.withLock { state in
            state.listening = false
            state.counts.removeAll()
            state.logins.removeAll()
            state.loginEpoch &+= 1
        }
    }
}
