import Synchronization

/// How many searches the server runs at once, and for how long.
public struct SearchLimits: Sendable {
    /// A search still running after this long is interrupted and answered 503.
    public var timeout: Duration
    /// Searches running at once. The pool has five readers for every other read that does not
    /// fit on a quick connection (later pages, exports, counts); two searches leave them three.
    public var concurrent: Int
    /// How long a search waits for one of those places before it is answered 503.
    public var queueWait: Duration

    public init(timeout: Duration = .seconds(2), concurrent: Int = 2, queueWait: Duration = .seconds(1)) {
        self.timeout = timeout
        self.concurrent = max(1, concurrent)
        self.queueWait = queueWait
    }
}

/// Runs searches within `SearchLimits`: at most `concurrent` at once (the rest wait in turn, up
/// to `queueWait`), each cancelled at `timeout`. Cancelling a search's task stops its query in
/// the database (`EntryRows.search` promises it), so the connection it held is free at once.
///
/// Waiting is by continuation, never by blocking a thread: Swift's cooperative threads are few
/// (one per core), and a blocked one holds up every request.
final class SearchGate: Sendable {
    let limits: SearchLimits
    private let state: Mutex<State>

    private struct State {
        var free: Int
        var waiting: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        /// Searches about to wait, and why any of them gave up before it began to.
        var starting: Set<Int> = []
        var abandoned: [Int: any Error] = [:]
        var nextID = 0
    }

    /// Why a search was not answered.
    enum Refusal: Error, Equatable {
        /// Every place was taken for all of `queueWait`.
        case busy
        /// It ran past `timeout`.
        case timedOut
    }

    /// Searches that may wait for a place at once: a bound on the queue, far above what one
    /// second of waiting clears in the usual case. At 64, the searches of clients that had hung up
    /// (still run: nothing cancels them) and 64 new clients' were more, and some were refused.
    static let maximumWaiting = 256

    init(limits: SearchLimits) {
        self.limits = limits
        state = Mutex(State(free: limits.concurrent))
    }

    /// The result of `search`, run in its turn and within the deadline.
    func run<T: Sendable>(_ search: @escaping @Sendable () async throws -> T) async throws -> T {
        try await enter()
        defer { leave() }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await search() }
            group.addTask {
                try await Task.sleep(for: self.limits.timeout)
                return nil
            }
            defer { group.cancelAll() }
            // The first to finish decides; leaving the group waits for the other, and a
            // cancelled search ends at its statement's next step.
            guard let first = try await group.next(), let result = first else { throw Refusal.timedOut }
            return result
        }
    }

    private func enter() async throws {
        let id: Int? = try state.withLock { state in
            if state.free > 0 {
                state.free -= 1
                return nil
            }
            // A queue far longer than could be served within `queueWait` is refused at once.
            guard state.waiting.count + state.starting.count < Self.maximumWaiting else { throw Refusal.busy }
            state.nextID += 1
            state.starting.insert(state.nextID)
            return state.nextID
        }
        guard let id else { return }
        let timer = Task { [limits] in
            try await Task.sleep(for: limits.queueWait)
            self.giveUp(id, with: Refusal.busy)
        }
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let abandoned = state.withLock { state in
                    state.starting.remove(id)
                    guard let error = state.abandoned.removeValue(forKey: id) else {
                        state.waiting.append((id, continuation))
                        return nil as (any Error)?
                    }
                    return error
                }
                if let abandoned { continuation.resume(throwing: abandoned) }
            }
        } onCancel: {
            self.giveUp(id, with: CancellationError())
        }
    }

    /// Ends a wait that is still waiting (a turn handed over meanwhile is kept).
    private func giveUp(_ id: Int, with error: any Error) {
        let continuation = state.withLock { state in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else {
                // About to wait: it gives up as it begins. No longer waiting: its turn came.
                if state.starting.contains(id) { state.abandoned[id] = state.abandoned[id] ?? error }
                return nil as CheckedContinuation<Void, any Error>?
            }
            return state.waiting.remove(at: index).continuation
        }
        continuation?.resume(throwing: error)
    }

    /// Hands the place to the longest waiting search, or frees it.
    private func leave() {
        let next = state.withLock { state in
            if state.waiting.isEmpty {
                state.free += 1
                return nil as CheckedContinuation<Void, any Error>?
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume()
    }
}
