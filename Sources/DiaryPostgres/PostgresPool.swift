import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The pool of connections to one PostgreSQL, made anew when it does not recover by itself.
///
/// postgres-nio's pool waits longer and longer between attempts to connect (up to a minute), and
/// its requests wait as long: after an outage of a minute it kept a server answering 503 for tens
/// of seconds after PostgreSQL was back. So a watch (one task a pool, four looks a second) sees
/// when requests wait and none has been handed a connection for a second; then one direct
/// connection is tried, and the pool is made anew if it is stuck or PostgreSQL is away (`renew`;
/// not when it is merely busy): PostgreSQL back, the fresh pool connects at once; still away,
/// closing the old pool answers the requests waiting on it (those already working on one of its
/// connections finish, or fail on it, first: `PoolRun`), and while the direct tries fail, new
/// requests are refused at once (`isAway`) so clients hear 503 without waiting. A request that
/// waited on a pool made anew waits on the new one.
final class PostgresPool: Sendable {
    /// The pool in use, and how many times the pool has been made anew before it.
    struct Current: Sendable {
        let client: PostgresClient
        let generation: Int
        fileprivate let run: PoolRun
    }

    private struct State {
        var current: Current
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

    private let state: Mutex<State>
    private let epoch = ContinuousClock.now
    /// When a request last got a connection, in nanoseconds after `epoch`.
    private let lastLease = Atomic<Int64>(0)
    /// How many requests wait for a connection now, and how many hold one.
    private let waiting = Atomic<Int>(0)
    private let inUse = Atomic<Int>(0)
    private let makeClient: @Sendable () -> PostgresClient
    /// A direct try to connect, outside the pool.
    private let probe: @Sendable () async -> Probe
    private let logger: Logger

    /// What a direct try to connect found.
    enum Probe: Sendable {
        /// A connection was made.
        case reached
        /// No server answered (refused, reset, timed out), or it cannot serve this diary (shutting
        /// down, the database gone, the password refused): PostgreSQL is away for this instance.
        case away
        /// PostgreSQL answered that it has too many connections: busy, not away.
        case refused
    }

    init(logger: Logger, probe: @escaping @Sendable () async -> Probe, makeClient: @escaping @Sendable () -> PostgresClient) {
        self.makeClient = makeClient
        self.probe = probe
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
        Current(client: client, generation: generation, run: PoolRun(client))
    }

    /// The pool requests use now.
    var current: Current { state.withLock { $0.current } }

    private var isClosed: Bool { state.withLock { $0.closed } }

    private var lastLeased: ContinuousClock.Instant { epoch + .nanoseconds(lastLease.load(ordering: .relaxed)) }

    private var quiet: Duration { ContinuousClock.now - lastLeased }

    /// A request waits for a connection of `pool`: `work` with it when it comes, unless the
    /// request gave up meanwhile (`ticket`), so that work given up on is never done after all.
    /// The request is counted while it waits and while it holds the connection, for the watch.
    func lease<T: Sendable>(from pool: Current, _ ticket: Ticket,
                            _ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        waiting.add(1, ordering: .relaxed)
        do {
            return try await pool.client.withConnection { [self] connection in
                // A connection of a pool made anew meanwhile: its work is not begun (the ticket is
                // not taken), and `PostgresDatabase.leasing` waits on the new pool instead.
                guard pool.run.hold() else { throw PoolRenewed() }
                defer { pool.run.release() }
                guard ticket.take() else { throw PoolRenewed() }
                waiting.subtract(1, ordering: .relaxed)
                inUse.add(1, ordering: .relaxed)
                defer { inUse.subtract(1, ordering: .relaxed) }
                lastLease.store(Int64((ContinuousClock.now - epoch) / .nanoseconds(1)), ordering: .relaxed)
                return try await work(connection)
            }
        } catch {
            if ticket.abandon() { waiting.subtract(1, ordering: .relaxed) }
            throw error
        }
    }

    /// A request waiting on `lease` gives up (its watch's reason); false when it has its
    /// connection already, and its work goes on.
    func giveUp(_ ticket: Ticket) -> Bool {
        guard ticket.abandon() else { return false }
        waiting.subtract(1, ordering: .relaxed)
        return true
    }

    /// The watch's look: requests waiting, and none served for a while.
    private func look() {
        if waiting.load(ordering: .relaxed) > 0 { missed() }
    }

    /// A request found no connection. If none has been handed out for a while, a direct
    /// connection is tried, in the background, at most once a second, and the pool made anew
    /// after it if need be (`renew`).
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
            renew(after: await probe(), triedAt: now)
        }
    }

    /// Whether requests can simply wait for a connection: one got one within the last second.
    /// Otherwise (an idle server, an outage) they wait with a watch of their own (`PostgresDatabase`).
    var isBusyAndWell: Bool { quiet < Self.quietBeforeProbe && !isAway }

    /// Whether PostgreSQL is known to be away: the last direct try failed, lately, and no request
    /// has had a connection since. Requests are then refused at once instead of each waiting.
    var isAway: Bool {
        guard let since = state.withLock({ $0.unreachableSince }) else { return false }
        return lastLeased < since && ContinuousClock.now - since < Self.awayFor
    }

    /// After a direct try begun at `triedAt`. Nothing changes if a request has had a connection
    /// since (the pool works), or if PostgreSQL was reached, or answered that it is full, while
    /// connections of the pool are in use (a pool busy with long work, not a stuck one). Reached
    /// with none in use, the stuck pool is closed and made anew; its waiting requests wait on the
    /// new one (`PostgresDatabase.leasing`). Away (or full with none in use), the pool is closed
    /// and made anew too: its waiting requests fail at once, those in use fail on their
    /// connections (gone with the server) before the old pool stops (`PoolRun`), and new ones
    /// are refused at once for a while.
    private func renew(after found: Probe, triedAt: ContinuousClock.Instant) {
        let busy = inUse.load(ordering: .relaxed) > 0
        let (old, wasAway): (PoolRun?, Bool) = state.withLock { state in
            state.probing = false
            let wasAway = state.unreachableSince != nil
            guard !state.closed, lastLeased < triedAt else { return (nil, wasAway) }
            switch found {
            case .reached where busy, .refused where busy: return (nil, wasAway)
            case .reached: state.unreachableSince = nil
            case .refused, .away: state.unreachableSince = .now
            }
            let old = state.current.run
            state.current = Self.start(makeClient(), generation: state.current.generation + 1)
            return (old, wasAway)
        }
        guard let old else { return }
        old.retire()
        switch found {
        case .away where !wasAway, .refused where !wasAway:
            logger.error("PostgreSQL cannot be reached: requests are answered 503 until it answers again")
        case .reached:
            logger.notice("PostgreSQL answers: made a new pool of connections (the old one was not recovering by itself)")
        default:
            break
        }
    }

    /// Returns when the pool is closed (`close()`).
    func untilClosed() async {
        while true {
            let (task, closed) = state.withLock { ($0.current.run.task, $0.closed) }
            if closed { return }
            await task.value  // ends when its pool is closed, or replaced by a renewal
            if state.withLock({ $0.current.run.task == task && !$0.closed }) { return }  // ended by itself
        }
    }

    /// Closes every pool's connections; no new pool is made after.
    func close() {
        let run = state.withLock { state in
            state.closed = true
            return state.current.run
        }
        run.retire()
    }
}

/// One request's wait for a connection: waiting, then either served (its work runs) or given up
/// (its work never runs), whichever comes first.
final class Ticket: Sendable {
    private let state = Atomic<Int>(0)  // 0 waiting, 1 served, 2 given up

    /// Waiting → served; false if it was given up.
    func take() -> Bool { state.compareExchange(expected: 0, desired: 1, ordering: .relaxed).exchanged }
    /// Waiting → given up; false if it was served (or given up already).
    func abandon() -> Bool { state.compareExchange(expected: 0, desired: 2, ordering: .relaxed).exchanged }
    /// Whether the work ran (or runs).
    var served: Bool { state.load(ordering: .relaxed) == 1 }
}

/// A request that waited on a pool that has since been replaced, or gave up its wait.
struct PoolRenewed: Error {}
