@testable import DiaryPostgres
import Foundation
import Logging
import PostgresNIO
import Synchronization
import Testing

/// A pool made anew while a request works on one of its connections.
@Suite("A pool made anew leaves no request hanging")
struct PostgresPoolRenewalTests {
    /// Cancelling the old pool's `run()` under a request that held one of its connections left
    /// the request's next query waiting forever (postgres-nio shuts the pool down by force), and
    /// under load the whole test suite stalled on such a request.
    @Test("A request that holds a connection when its pool is made anew finishes its work on it",
          .enabled(if: PostgresForTests.url != nil))
    func renewedUnderARequest() async throws {
        let address = try PostgresAddress(url: try #require(PostgresForTests.url), environment: ProcessInfo.processInfo.environment)
        let configuration = PostgresClient.Configuration(
            host: address.host, port: address.port, username: address.user, password: address.password,
            database: address.database, tls: try PostgresDatabase.tls(for: address))
        let logger = Logger(label: "test")
        // The direct try finds PostgreSQL away (the pool is made anew even with a connection in
        // use), but only once the request holds its connection: until then a try waits, so that
        // the pool's own watch (a slow first connection on a loaded machine) changes nothing.
        let renew = Atomic<Bool>(false)
        let pool = PostgresPool(logger: logger, probe: {
            while !renew.load(ordering: .relaxed) { try? await Task.sleep(for: .milliseconds(20)) }
            return .away
        }, makeClient: {
            PostgresClient(configuration: configuration, backgroundLogger: logger)
        })
        defer { pool.close() }
        let first = pool.current
        let done = Mutex<String?>(nil)
        let request = Task {
            do {
                let answer = try await pool.lease(from: first, Ticket()) { connection in
                    // A second without any other request served: the pool may be suspected stuck.
                    try await Task.sleep(for: .milliseconds(1100))
                    renew.store(true, ordering: .relaxed)
                    // A try begun before this request had its connection changes nothing; the next does.
                    let until = ContinuousClock.now + .seconds(30)
                    while pool.current.generation == first.generation && ContinuousClock.now < until {
                        pool.missed()
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    return try await connection.query("SELECT 1", logger: logger).collect().count
                }
                done.withLock { $0 = "answered \(answer) row" }
            } catch {
                done.withLock { $0 = "failed: \(error)" }
            }
        }
        // Not awaited: without the fix the request never ends, and this test must. (Deadlines far
        // above the second this takes: on a loaded machine the tries themselves waited long.)
        let deadline = ContinuousClock.now + .seconds(60)
        while done.withLock({ $0 }) == nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(pool.current.generation == first.generation + 1)
        #expect(done.withLock { $0 } == "answered 1 row")
        if done.withLock({ $0 }) == nil { request.cancel() }
    }
}
