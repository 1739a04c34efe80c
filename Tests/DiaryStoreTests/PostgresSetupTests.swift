import DiaryBackends
import DiaryCore
@testable import DiaryPostgres
import Foundation
import Testing

/// How a PostgreSQL database is named, reached and set up: the URL, the password's sources,
/// TLS, migrations under many instances, and the messages when something is wrong.
@Suite("Reaching and setting up PostgreSQL")
struct PostgresSetupTests {
    // MARK: The URL and the password (no server needed)

    @Test("A URL gives host, port, user, database and sslmode as libpq reads them")
    func readsURL() throws {
        let address = try PostgresAddress(url: "postgres://ann@db.example:6543/diary?sslmode=verify-full&sslrootcert=/etc/ca.pem",
                                          environment: [:])
        #expect(address.host == "db.example" && address.port == 6543 && address.user == "ann" && address.database == "diary")
        #expect(address.tls == .verifyFull && address.rootCertificates == "/etc/ca.pem")
        #expect(address.description == "postgres://ann@db.example:6543/diary")
        let socket = try PostgresAddress(url: "postgresql://ann@/diary?host=/var/run/postgresql", environment: [:])
        #expect(socket.socketFolder == "/var/run/postgresql" && socket.tls == .prefer)
        let defaults = try PostgresAddress(url: "postgres://localhost", environment: ["PGUSER": "zed"])
        #expect(defaults.user == "zed" && defaults.database == "zed" && defaults.port == 5432)
    }

    @Test("A password in the URL, a bad sslmode, port or option is refused with what to do")
    func refusesBadURLs() {
        #expect(throws: PostgresAddressError.passwordInURL) { try PostgresAddress(url: "postgres://ann:secret@host/db", environment: [:]) }
        for url in ["postgres://ann@host/db?sslmode=sometimes", "postgres://ann@host:99999/db", "postgres://ann@host/db?colour=blue",
                    "mysql://ann@host/db", "postgres://ann@host/db?port=abc"] {
            #expect(throws: PostgresAddressError.self, "\(url)") { try PostgresAddress(url: url, environment: [:]) }
        }
        let message = String(describing: PostgresAddressError.passwordInURL)
        #expect(message.contains("PGPASSWORD") && !message.contains("secret"))
    }

    @Test("The password comes from the file option, then PGPASSWORD, then the matching line of the password file")
    func password() throws {
        let folder = try TemporaryFolder.make()
        let option = folder.appendingPathComponent("password").path
        try "from the option\nsecond line\n".write(toFile: option, atomically: true, encoding: .utf8)
        let passFile = folder.appendingPathComponent("pgpass").path
        try """
            # a comment
            other.host:5432:diary:ann:wrong
            db.example:*:diary:ann:from\\:the\\\\file
            *:*:*:*:anyone
            """.write(toFile: passFile, atomically: true, encoding: .utf8)
        let url = "postgres://ann@db.example/diary"
        #expect(try PostgresAddress(url: url, passwordFile: option, environment: ["PGPASSWORD": "env"]).password == "from the option")
        #expect(try PostgresAddress(url: url, environment: ["PGPASSWORD": "env", "PGPASSFILE": passFile]).password == "env")
        #expect(try PostgresAddress(url: url, environment: ["PGPASSFILE": passFile]).password == "from:the\\file")
        #expect(try PostgresAddress(url: "postgres://bob@elsewhere/x", environment: ["PGPASSFILE": passFile]).password == "anyone")
        #expect(try PostgresAddress(url: url, environment: [:]).password == nil)
        #expect(throws: PostgresAddressError.unreadablePasswordFile("/no/such/file")) {
            try PostgresAddress(url: url, passwordFile: "/no/such/file", environment: [:])
        }
    }

    // MARK: A real server

    static let server = PostgresForTests.url != nil

    /// The test server's URL with its database changed to `database` and `query` added.
    static func url(database: String, query: String = "") throws -> String {
        let base = try #require(PostgresForTests.url)
        let slash = try #require(base.range(of: "/", options: .backwards))
        return String(base[..<slash.lowerBound]) + "/" + database + (query.isEmpty ? "" : "?" + query)
    }

    @Test("Five instances starting at once on a new database migrate it exactly once", .enabled(if: server))
    func migratesOnce() async throws {
        let url = try PostgresForTests.newDatabase()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<5 { group.addTask { _ = try await Backends.open(url, for: .command) } }
            try await group.waitForAll()
        }
        let storage = try await Backends.open(url, for: .command)
        _ = try await storage.diary(of: .localOwner).create(try EntryText(title: "After", body: ""), id: UUID()).entry
        // Each migration is recorded once.
        try PostgresForTests.psql(url, """
            DO $$ BEGIN
              IF (SELECT count(*) FROM diary_migration) <> \(PostgresMigrations.all.count)
                 OR (SELECT count(DISTINCT name) FROM diary_migration) <> \(PostgresMigrations.all.count) THEN
                RAISE EXCEPTION 'migrations recorded wrongly';
              END IF;
            END $$
            """)
    }

    @Test("Every migration from the first schema on keeps what was stored before it", .enabled(if: server))
    func upgradesFromEachSchema() async throws {
        // Each earlier schema, with an entry stored in it as that schema stores one, then the rest.
        for index in PostgresMigrations.all.indices {
            let url = try PostgresForTests.newDatabase()
            // One psql for the whole earlier schema (each statement its own -c, as a migration runs
            // them): a process for each statement made this test over a minute on a busy machine.
            var earlierSchema = ["CREATE TABLE diary_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"]
            for earlier in PostgresMigrations.all.prefix(upTo: index) {
                earlierSchema += PostgresMigrations.statements(of: earlier.sql)
                earlierSchema.append("INSERT INTO diary_migration (name) VALUES ('\(earlier.name)')")
            }
            try PostgresForTests.psql(url, earlierSchema)
            let old = UUID()
            if index > 0 {
                // The columns of the first schema; every later one has a default, but the word
                // count, which a Diary of that schema writes with the entry.
                let counted = PostgresMigrations.all.prefix(upTo: index).contains { $0.name == "v4-word-counts" }
                try PostgresForTests.psql(url, """
                    INSERT INTO entry (owner_id, id, title, body, created_at, updated_at, version, words, title_words, body_words\(counted ? ", word_count" : ""))
                    VALUES (\(UserID.localOwner.rawValue), '\(old.diaryString)', convert_to('Old rain', 'UTF8'),
                            convert_to('오늘은 비가 왔다', 'UTF8'), 1716940800000, 1716940800000, 3,
                            to_tsvector('simple', 'old rain 오늘 늘은 비가 왔다'), 2, 4\(counted ? ", 5" : ""))
                    """)
            }
            let storage = try await Backends.open(url, for: .command)
            let entry = try await storage.diary(of: .localOwner).create(try EntryText(title: "Kept", body: "일기"), id: UUID()).entry
            let reopened = try await Backends.open(url, for: .command).diary(of: .localOwner)
            #expect(try await reopened.entry(id: entry.id) == entry)
            guard index > 0 else { continue }
            let from = PostgresMigrations.all[index - 1].name
            let kept = try #require(try await reopened.entry(id: old))
            #expect(kept.title == "Old rain" && kept.body == "오늘은 비가 왔다" && kept.version == 3, "from \(from)")
            // The words of entries stored before word counts were kept are counted by the upgrade.
            let may = try await reopened.calendar(year: 2024, month: 5, in: TimeZone(identifier: "UTC")!)
            #expect(may.days == [DayTally(date: "2024-05-29", entries: 1, words: 5)], "from \(from)")
            #expect(try await reopened.search("비가", limit: 5).map(\.entry.id) == [old], "from \(from)")
        }
    }

    @Test("A database set up by a newer Diary is refused and left untouched", .enabled(if: server))
    func newerSchema() async throws {
        let url = try PostgresForTests.newDatabase()
        _ = try await Backends.open(url, for: .command)
        try PostgresForTests.psql(url, "INSERT INTO diary_migration (name) VALUES ('v99-from-the-future')")
        await #expect {
            _ = try await Backends.open(url, for: .command)
        } throws: { error in
            String(describing: error).contains("newer version of Diary")
        }
    }

    @Test("A missing database, a wrong password and an unreachable server each say so", .enabled(if: server))
    func clearFailures() async throws {
        func message(_ url: String, _ environment: [String: String]) async -> String {
            do {
                _ = try await Backends.open(url, for: .command, environment: environment)
                return "opened"
            } catch {
                return String(describing: error)
            }
        }
        let password = ProcessInfo.processInfo.environment["PGPASSWORD"] ?? ""
        let missing = await message(try Self.url(database: "no_such_database_here"), ["PGPASSWORD": password])
        #expect(missing.contains("does not exist") && missing.contains("createdb"), "\(missing)")
        let wrong = await message(try Self.url(database: "postgres"), ["PGPASSWORD": "not the password"])
        #expect(wrong.contains("refused to let") && !wrong.contains("not the password"), "\(wrong)")
        let none = await message(try Self.url(database: "postgres"), [:])
        #expect(none.contains("none was given") && none.contains("PGPASSWORD"), "\(none)")
        let away = await message("postgres://postgres@127.0.0.1:1/postgres", ["PGPASSWORD": password])
        #expect(away.contains("Cannot reach PostgreSQL"), "\(away)")
    }

    /// scripts/postgres makes the test cluster's certificate, for the name localhost (not for
    /// 127.0.0.1), signed by an authority of its own; scripts/test names that authority's file.
    static let authority = ProcessInfo.processInfo.environment["DIARY_TEST_POSTGRES_CA"]

    @Test("TLS: sslmode=require encrypts; verify-full trusts only the given authority and host name", .enabled(if: server && authority != nil))
    func tls() async throws {
        let authority = try #require(Self.authority)
        let database = try PostgresForTests.newDatabase()
        let name = String(database[database.range(of: "/", options: .backwards)!.upperBound...])
        let byName = { (query: String) in try Self.url(database: name, query: query).replacingOccurrences(of: "127.0.0.1", with: "localhost") }
        for url in [try byName("sslmode=require"), try byName("sslmode=verify-full&sslrootcert=\(authority)"),
                    try Self.url(database: name, query: "sslmode=verify-ca&sslrootcert=\(authority)")] {
            let storage = try await Backends.open(url, for: .command)
            _ = try await storage.diary(of: .localOwner).count()
            let connected = try await storage.accountRows.userCount()
            #expect(connected == 0)
        }
        // The right authority, but a name the certificate does not hold.
        let wrongName = try Self.url(database: name, query: "sslmode=verify-full&sslrootcert=\(authority)")
        await #expect(throws: (any Error).self) { _ = try await Backends.open(wrongName, for: .command) }
        // No authority given: verify-full checks against the system's, which never signed a test certificate.
        await #expect(throws: (any Error).self) { _ = try await Backends.open(try byName("sslmode=verify-full"), for: .command) }
    }
}
