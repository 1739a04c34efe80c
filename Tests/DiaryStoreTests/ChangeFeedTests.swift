import DiaryCore
@testable import DiaryPostgres
import Foundation
import Logging
import Testing

/// Two `diary serve` instances on one PostgreSQL, as their storages: what one knows without
/// asking (a diary's change count, a login) follows the other's writes, told by PostgreSQL's
/// notifications, and this instance's own writes at once.
@Suite("What an instance knows without asking follows every instance's writes", .enabled(if: PostgresForTests.url != nil))
struct ChangeFeedTests {
    /// Two instances on one new database, each listening (as a running server does).
    func twoInstances() async throws -> (PostgresStorage, PostgresStorage, [Task<Void, Never>]) {
        let url = try PostgresForTests.newDatabase()
        let environment = ProcessInfo.processInfo.environment
        let logger = Logger(label: "test")
        let one = try await PostgresStorage.open(try PostgresAddress(url: url, environment: environment), logger: logger)
        let other = try await PostgresStorage.open(try PostgresAddress(url: url, environment: environment), logger: logger)
        let running = [Task { await one.maintain() }, Task { await other.maintain() }]
        return (one, other, running)
    }

    /// Waits (up to 20 s, a loaded machine) until `condition` holds.
    func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test("A write is known at once where it was made, and soon at the other instance, with no question asked")
    func changeCounts() async throws {
        let (one, other, running) = try await twoInstances()
        defer { for task in running { task.cancel() } }
        let owner = UserID.localOwner
        // Listening: a count read once is then known.
        #expect(try await eventually { one.database.feed.mark() != 0 && other.database.feed.mark() != 0 })
        let start = try await other.diary(of: owner).changeCount()
        #expect(other.database.feed.count(of: owner) == start)

        _ = try await one.diary(of: owner).create(try EntryText(title: "Rain", body: ""), id: UUID()).entry
        // Where it was written: at once, before its own notification comes back.
        #expect(one.database.feed.count(of: owner) == start + 1)
        // At the other instance: when PostgreSQL tells it, without reading the count again.
        #expect(try await eventually { other.database.feed.count(of: owner) == start + 1 })
        #expect(try await other.diary(of: owner).changeCount() == start + 1)
        // The other instance's first page then holds the entry.
        #expect(try await other.diary(of: owner).list(after: nil, limit: 20).entries.map(\.title) == ["Rain"])

        // Stopped listening: nothing is known, every question goes to the database.
        other.database.feed.stop()
        #expect(other.database.feed.count(of: owner) == nil)
        _ = try await one.diary(of: owner).create(try EntryText(title: "Sun", body: ""), id: UUID()).entry
        #expect(try await other.diary(of: owner).changeCount() == start + 2)
    }

    @Test("A token revoked or a session ended at one instance stops working at both")
    func logins() async throws {
        let (one, other, running) = try await twoInstances()
        defer { for task in running { task.cancel() } }
        #expect(try await eventually { one.database.feed.mark() != 0 && other.database.feed.mark() != 0 })
        let user = try await one.accountRows.insertUser(name: "mina", key: "mina", passwordHash: "x", createdAt: Date(), onlyIfFirst: false)
        try await one.accountRows.insertToken(named: "phone", tokenHash: "hash-of-token", user: user.id, at: Date())
        try await one.accountRows.insertSession(tokenHash: "hash-of-cookie", csrfToken: "csrf", user: user.id, at: Date(), label: "")
        // Both instances look them up once, and know them after.
        for storage in [one, other] {
            #expect(try await storage.accountRows.user(forTokenHash: "hash-of-token")?.name == "mina")
            #expect(try await storage.accountRows.session(tokenHash: "hash-of-cookie")?.session.csrfToken == "csrf")
            #expect(storage.database.feed.login("hash-of-token") != nil)
            #expect(storage.database.feed.login("hash-of-cookie") != nil)
        }

        #expect(try await one.accountRows.deleteToken(named: "phone", of: user.id))
        #expect(try await one.accountRows.user(forTokenHash: "hash-of-token") == nil)  // at once, here
        #expect(try await eventually { try await other.accountRows.user(forTokenHash: "hash-of-token") == nil })

        try await other.accountRows.deleteSession(tokenHash: "hash-of-cookie")
        #expect(try await other.accountRows.session(tokenHash: "hash-of-cookie") == nil)
        #expect(try await eventually { try await one.accountRows.session(tokenHash: "hash-of-cookie") == nil })
    }
}
