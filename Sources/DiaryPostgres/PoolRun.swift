import PostgresNIO
import Synchronization

/// A pool's `run()`, stopped only once the pool is retired (made anew, or closed) and no request
/// works on one of its connections any more.
///
/// Cancelling a `PostgresClient`'s `run()` shuts its pool down by force: requests still waiting
/// fail at once, as they should, but a query on a connection already handed out never answers
/// (postgres-nio 1.33.2: the request waits forever, and PostgreSQL no longer has the connection).
/// Under load a pool was made anew while a request had just got a connection of the old one,
/// and the request, then the test suite, hung with every thread idle. So the old pool keeps
/// running until its last connection in use is given back; a connection it hands out after it
/// is retired is refused (`hold`), and the request waits on the new pool instead.
final class PoolRun: Sendable {
    private struct State {
        var holding = 0
        var retired = false
    }

    private let state = Mutex(State())
    let task: Task<Void, Never>

    init(_ client: PostgresClient) {
        task = Task.detached { await client.run() }
    }

    /// A request got a connection and is about to work on it; false when the pool is retired.
    func hold() -> Bool {
        state.withLock { state in
            if state.retired { return false }
            state.holding += 1
            return true
        }
    }

    /// The request is done with its connection (`hold` said true).
    func release() {
        let stop = state.withLock { state in
            state.holding -= 1
            return state.retired && state.holding == 0
        }
        if stop { task.cancel() }
    }

    /// No new work on this pool: it stops now, or when its last connection in use is given back.
    func retire() {
        let stop = state.withLock { state in
            state.retired = true
            return state.holding == 0
        }
        if stop { task.cancel() }
    }
}
