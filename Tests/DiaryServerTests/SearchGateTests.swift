@testable import DiaryServer
import Testing

@Suite("Searches run a few at a time, each within its deadline")
struct SearchGateTests {
    @Test("A search past its deadline is cancelled and refused, without waiting for it to end by itself")
    func deadline() async throws {
        let gate = SearchGate(limits: SearchLimits(timeout: .milliseconds(50)))
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: SearchGate.Refusal.timedOut) {
            try await gate.run {
                // Stands for a statement that SQLite would run for an hour: it ends when cancelled.
                try await Task.sleep(for: .seconds(3_600))
                return 1
            }
        }
        // Generous: other suites running beside this one can keep Swift's few threads busy.
        #expect(clock.now - started < .seconds(60))
        // Its place is free again.
        #expect(try await gate.run { 2 } == 2)
    }

    @Test("Beyond the searches allowed at once, a search waits its turn, and is refused when none comes soon")
    func busy() async throws {
        let gate = SearchGate(limits: SearchLimits(timeout: .seconds(60), concurrent: 1, queueWait: .milliseconds(50)))
        let (first, go) = await holding(gate)
        await #expect(throws: SearchGate.Refusal.busy) { try await gate.run { 2 } }
        go.yield()
        #expect(try await first.value == 1)
        #expect(try await gate.run { 3 } == 3)
    }

    @Test("A search waiting when another ends takes its place")
    func handover() async throws {
        let gate = SearchGate(limits: SearchLimits(timeout: .seconds(60), concurrent: 1, queueWait: .seconds(60)))
        let (first, go) = await holding(gate)
        let second = Task { try await gate.run { 2 } }
        go.yield()
        #expect(try await first.value == 1)
        #expect(try await second.value == 2)
    }

    @Test("Cancelling a waiting search ends its wait at once")
    func cancelledWhileWaiting() async throws {
        let gate = SearchGate(limits: SearchLimits(timeout: .seconds(60), concurrent: 1, queueWait: .seconds(60)))
        let (entered, signal) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await gate.run {
                signal.yield()
                try await Task.sleep(for: .seconds(60))
                return 0
            }
        }
        for await _ in entered { break }
        let waiter = Task { try await gate.run { 1 } }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        holder.cancel()
        _ = try? await holder.value
        #expect(try await gate.run { 5 } == 5)
    }

    /// A search that has taken its place at `gate` and holds it, answering 1, until `go` yields.
    private func holding(_ gate: SearchGate) async -> (Task<Int, any Error>, AsyncStream<Void>.Continuation) {
        let (entered, signal) = AsyncStream.makeStream(of: Void.self)
        let (release, go) = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            try await gate.run {
                signal.yield()
                for await _ in release { break }
                return 1
            }
        }
        for await _ in entered { break }
        return (first, go)
    }
}
