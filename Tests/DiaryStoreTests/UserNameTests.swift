import DiaryCore
import DiaryPasswords
@testable import DiaryStore
import Foundation
import GRDB
import Testing

/// Two names that look the same are one name: case, Unicode's composed and decomposed
/// spellings, full-width letters, and full case folding ("STRASSE" and "straße") all lead to one
/// account.
@Suite("User names in one normal form")
struct UserNameTests {
    static let spellings: [[String]] = [
        ["Mina", "mina", "MINA", "\u{FF2D}\u{FF49}\u{FF4E}\u{FF41}"],
        ["Caf\u{E9}", "Cafe\u{301}", "CAF\u{C9}", "CAFE\u{301}"],
        ["stra\u{DF}e", "STRASSE", "Strasse"],
    ]

    @Test("A name in another spelling is taken, logs in, and keeps the spelling first written", arguments: spellings)
    func oneAccountPerName(_ spellings: [String]) async throws {
        let accounts = SQLiteStorage(database: try SQLiteDatabase(path: TemporaryFolder.make().appendingPathComponent("diary.sqlite").path)).accounts(passwords: BcryptPasswords(cost: 4))
        let first = spellings[0]
        _ = try await accounts.addUser(name: first, password: "long enough pw")

        for other in spellings.dropFirst() {
            await #expect(throws: AccountError.nameTaken(other)) { try await accounts.addUser(name: other, password: "long enough pw") }
        }
        for spelling in spellings {
            #expect(try await accounts.verify(name: spelling, password: "long enough pw")?.name == first)
            #expect(try await accounts.user(named: spelling)?.name == first)
        }
        #expect(try await accounts.users().map(\.name) == [first])
        try await accounts.setPassword(name: spellings.last!, password: "another long pw")
        #expect(try await accounts.verify(name: first, password: "another long pw") != nil)
    }

    @Test("An older diary holding two names that now collide opens, keeps both, and takes no third")
    func collidingNamesFromBefore() async throws {
        let path = try TemporaryFolder.make().appendingPathComponent("diary.sqlite").path
        // A diary made before names had keys: NOCASE let these two in, byte for byte different.
        let names = ["Caf\u{E9}", "Cafe\u{301}"]
        var hashes: [String] = []
        for name in names { hashes.append(try await BcryptPasswords(cost: 4).hash("password of \(name)")) }
        let queue = try DatabaseQueue(path: path)
        try SQLiteMigrations.migrator.migrate(queue, upTo: "v4-change-counts")
        try await queue.write { [hashes] db in
            for (name, hash) in zip(names, hashes) {
                try db.execute(sql: "INSERT INTO user (name, password_hash, created_at) VALUES (?, ?, 0)", arguments: [name, hash])
            }
        }
        try queue.close()

        let accounts = SQLiteStorage(database: try SQLiteDatabase(path: path)).accounts(passwords: BcryptPasswords(cost: 4))

        #expect(try await accounts.users().count == 2)
        // Each logs in by the name as written; another spelling finds the older.
        for name in ["Caf\u{E9}", "Cafe\u{301}"] {
            #expect(try await accounts.verify(name: name, password: "password of \(name)")?.name == name)
        }
        #expect(try await accounts.user(named: "CAF\u{C9}")?.name == "Caf\u{E9}")
        await #expect(throws: AccountError.nameTaken("caf\u{E9}")) { try await accounts.addUser(name: "caf\u{E9}", password: "long enough pw") }
    }

    @Test("Accounts of a diary made before keys are found in any case")
    func upgradedNamesHaveKeys() async throws {
        let accounts = SQLiteStorage(database: try SQLiteDatabase(path: MigrationUpgradeTests.copyOfFixture("v3-accounts"))).accounts(passwords: BcryptPasswords(cost: 4))
        #expect(try await accounts.user(named: "MINA")?.name == "mina")
        await #expect(throws: AccountError.nameTaken("Joon")) { try await accounts.addUser(name: "Joon", password: "long enough pw") }
    }
}
