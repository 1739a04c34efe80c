import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The pool of connections to one PostgreSQL, made anew when it does not recover by itself.
///
/// postgres-nio's pool waits longer and longer between attempts to connect (up to a minute) and,
/// after 15 s without a connection, fails every request at once; after an outage of a minute it
/// kept a server answering 503 for tens of seconds after PostgreSQL was back. So when requests
/// have found no connection for a while, one direct connection is tried (at most once a second);
/// if it is made, a fresh pool replaces the stuck one at once, and the old one is closed a little
/// later (a request still holding one of its connections finishes first). While the direct tries
/// fail, requests are refused at once (`isAway`), so clients hear 503 without waiting.
final class PostgresPool: Sendable {
    /// The pool in use, and how many times the pool has been made anew before it.
    struct Current: Sendable {
        let client: PostgresClient
        let generation: Int
        fileprivate let task: Task<Void, Never>
    }

    private struct State {
        var current: Current
        var retired: [Task<Void, Never>] = []
        var probing = false
        var lastProbe: ContinuousClock.Instant?
        /// When the last direct try failed, if it did and no request has had a connection since.
        var unreachableSince: ContinuousClock.Instant?
        var closed = false
    }

    /// How long without any request getting a connection before the pool is suspected stuck:
    /// a pool that is only busy hands out connections all the time.
    static let quietBeforeProbe: Duration = .seconds(1)
    /// The least time between two direct tries.
    static let probeInterval: Duration = .seconds(1)
    /// How long a replaced pool keeps its connections for the requests that hold them.
    static let retirement: Duration = .seconds(30)

    private let state: Mutex<State>
    private let epoch = ContinuousClock.now
    /// When a request last got a connection, in nanoseconds after `epoch`.
    private let lastLease = Atomic<Int64>(0)
    private let makeClient: @Sendable () -> PostgresClient
    private let logger: Logger

    init(logger: Logger, makeClient: @escaping @Sendable () -> PostgresClient) {
        self.makeClient = makeClient
        self.logger = logger
        self.state = Mutex(State(current: Self.start(makeClient(), generation: 0)))
    }

    private static func start(_ client: PostgresClient, generation: Int) -> Current {
        Current(client: client, generation: generation, task: Task.detached { await client.run() })
    }

    /// The pool requests use now.
    var current: Current { state.withLock { $0.current } }

    /// A request got a connection: the pool works.
    func leased() {
        lastLease.store(Int64((ContinuousClock.now - epoch) / .nanoseconds(1)), ordering: .relaxed)
    }

    /// A request found no connection. If none has for a while, `connects` (a direct connection,
    /// outside the pool) is tried once, in the background; when it succeeds, the pool is made anew.
    func missed(probe connects: @escaping @Sendable () async -> Bool) {
        let now = ContinuousClock.now
        let quiet = now - (epoch + .nanoseconds(lastLease.load(ordering: .relaxed)))
        guard quiet >= Self.quietBeforeProbe else { return }
        let go = state.withLock { state -> Bool in
            if state.closed || state.probing { return false }
            if let last = state.lastProbe, now - last < Self.probeInterval { return false }
            state.probing = true
            state.lastProbe = now
            return true
        }
        guard go else { return }
        Task.detached { [self] in
            let reachable = await connects()
            renew(if: reachable)
        }
    }

    /// Whether PostgreSQL is known to be away: the last direct try failed, lately, and no request
    /// has had a connection since. Requests are then refused at once instead of each waiting.
    var isAway: Bool {
        guard let since = state.withLock({ $0.unreachableSince }) else { return false }
        let lease = epoch + .nanoseconds(lastLease.load(ordering: .relaxed))
        return lease < since && ContinuousClock.now - since < Self.awayFor
    }

    /// How long a failed direct try counts (tries are made once a second while requests come).
    static let awayFor: Duration = .seconds(3)

    private func renew(if reachable: Bool) {
        let old: Task<Void, Never>? = state.withLock { state in
            state.probing = false
            state.unreachableSince = reachable ? nil : .now
            guard reachable, !state.closed else { return nil }
            let old = state.current.task
            state.current = Self.start(makeClient(), generation: state.current.generation + 1)
            state.retired.append(old)
            return old
        }
        guard let old else { return }
        logger.notice("PostgreSQL is reachable again but the pool of connections was not recovering: made a new one")
        Task.detached {
            try? await Task.sleep(for: Self.retirement)
            old.cancel()
        }
    }

    /// Returns when the pool is closed (`close()`).
    func untilClosed() async {
        while true {
            let (task, closed) = state.withLock { ($0.current.task, $0.closed) }
            if closed { return }
            await task.value  // ends when its pool is closed, or retired after a renewal
            if state.withLock({ $0.current.task == task && !$0.closed }) { return }  // ended by itself
        }
    }

    /// Closes every pool's connections; no new pool is made after.
    func close() {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            state.closed = true
            return state.retired + [state.current.task]
        }
        for task in tasks { task.cancel() }
    }
}
