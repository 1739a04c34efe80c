import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The pool of connections to one PostgreSQL, made anew when it does not recover by itself.
///
/// postgres-nio's pool waits longer and longer between attempts to connect (up to a minute), and
/// its requests wait as long: after an outage of a minute it kept a server answering 503 for tens
/// of seconds after PostgreSQL was back. So a watch (one task a pool, four looks a second) sees
/// when requests wait and none has had a connection for a second; then one direct connection is
/// tried, and the pool is made anew either way (`renew`): PostgreSQL back, the fresh pool connects
/// at once; still away, closing the old pool answers the requests waiting on it, and while the
/// direct tries fail, new requests are refused at once (`isAway`) so clients hear 503 without
/// waiting.
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

    /// How long without any request getting a connection, while some wait, before the pool is
    /// suspected stuck: a pool that is only busy hands out connections all the time.
    static let quietBeforeProbe: Duration = .seconds(1)
    /// The least time between two direct tries.
    static let probeInterval: Duration = .seconds(1)
    /// How long a failed direct try counts (tries are made once a second while requests come).
    static let awayFor: Duration = .seconds(3)
    /// How long a replaced pool keeps its connections for the requests that hold them.
    static let retirement: Duration = .seconds(30)

    private let state: Mutex<State>
    private let epoch = ContinuousClock.now
    /// When a request last got a connection, in nanoseconds after `epoch`.
    private let lastLease = Atomic<Int64>(0)
    /// How many requests wait for a connection now.
    private let waiting = Atomic<Int>(0)
    private let makeClient: @Sendable () -> PostgresClient
    /// Whether a connection can be made just now, outside the pool.
    private let reachable: @Sendable () async -> Bool
    private let logger: Logger

    init(logger: Logger, reachable: @escaping @Sendable () async -> Bool, makeClient: @escaping @Sendable () -> PostgresClient) {
        self.makeClient = makeClient
        self.reachable = reachable
        self.logger = logger
        self.state = Mutex(State(current: Self.start(makeClient(), generation: 0)))
        Task.detached { [weak self] in
            while let pool = self, !pool.isClosed {
                pool.look()
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    private static func start(_ client: PostgresClient, generation: Int) -> Current {
        Current(client: client, generation: generation, task: Task.detached { await client.run() })
    }

    /// The pool requests use now.
    var current: Current { state.withLock { $0.current } }

    private var isClosed: Bool { state.withLock { $0.closed } }

    private var quiet: Duration { ContinuousClock.now - (epoch + .nanoseconds(lastLease.load(ordering: .relaxed))) }

    /// A request waits for a connection: `work` with it when it comes. The request is counted
    /// while it waits, for the watch.
    func lease<T: Sendable>(from client: PostgresClient, _ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let served = LeaseFlag()
        waiting.add(1, ordering: .relaxed)
        do {
            return try await client.withConnection { [self] connection in
                if !served.value.exchange(true, ordering: .relaxed) { waiting.subtract(1, ordering: .relaxed) }
                lastLease.store(Int64((ContinuousClock.now - epoch) / .nanoseconds(1)), ordering: .relaxed)
                return try await work(connection)
            }
        } catch {
            if !served.value.exchange(true, ordering: .relaxed) { waiting.subtract(1, ordering: .relaxed) }
            throw error
        }
    }

    /// The watch's look: requests waiting, and none served for a while.
    private func look() {
        if waiting.load(ordering: .relaxed) > 0 && quiet >= Self.quietBeforeProbe { missed() }
    }

    /// A request found no connection. If none has for a while, a direct connection is tried, in
    /// the background, at most once a second, and the pool made anew after it.
    func missed() {
        let now = ContinuousClock.now
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
            renew(reachable: await reachable())
        }
    }

    /// Whether requests can simply wait for a connection: one got one within the last second.
    /// Otherwise (an idle server, an outage) they wait with a watch of their own (`PostgresDatabase`).
    var isBusyAndWell: Bool { quiet < Self.quietBeforeProbe && !isAway }

    /// Whether PostgreSQL is known to be away: the last direct try failed, lately, and no request
    /// has had a connection since. Requests are then refused at once instead of each waiting.
    var isAway: Bool {
        guard let since = state.withLock({ $0.unreachableSince }) else { return false }
        let lease = epoch + .nanoseconds(lastLease.load(ordering: .relaxed))
        return lease < since && ContinuousClock.now - since < Self.awayFor
    }

    /// After a direct try, the pool is made anew. PostgreSQL reached, the old pool keeps its
    /// connections a while for the requests holding them; not reached, the old pool is closed at
    /// once, which fails the requests waiting on it (they would wait for its next attempt, up to
    /// a minute) so that they are answered now.
    private func renew(reachable: Bool) {
        let (old, wasAway): (Task<Void, Never>?, Bool) = state.withLock { state in
            state.probing = false
            let wasAway = state.unreachableSince != nil
            state.unreachableSince = reachable ? nil : .now
            guard !state.closed else { return (nil, wasAway) }
            let old = state.current.task
            state.current = Self.start(makeClient(), generation: state.current.generation + 1)
            if reachable { state.retired.append(old) }
            return (old, wasAway)
        }
        guard let old else { return }
        guard reachable else {
            old.cancel()
            if !wasAway { logger.error("PostgreSQL cannot be reached: requests are answered 503 until it answers again") }
            return
        }
        logger.notice("PostgreSQL answers: made a new pool of connections (the old one was not recovering by itself)")
        Task.detached { [self] in
            try? await Task.sleep(for: Self.retirement)
            old.cancel()
            state.withLock { $0.retired.removeAll { $0 == old } }
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

/// Whether a request has had its connection yet.
final class LeaseFlag: Sendable {
    let value = Atomic<Bool>(false)
}
