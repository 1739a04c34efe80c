import DiaryCore
import DiaryServer
import DiaryStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Accounts, sessions and the web's usual attacks")
struct AccountsAPITests {
    /// Logs in through the API and returns the session cookie and CSRF token.
    static func logIn(_ client: APIClient, name: String = "writer", password: String = "correct horse") async throws -> (cookie: String, csrf: String) {
        let (response, body) = try await client.signed(with: nil).send(.post, "/api/v1/session", json: #"{"name": "\#(name)", "password": "\#(password)"}"#)
        #expect(response.status == .ok)
        let setCookie = try #require(response.headers[.setCookie])
        #expect(setCookie.contains("HttpOnly"))
        #expect(setCookie.contains("SameSite=Lax"))
        let cookie = String(setCookie.prefix { $0 != ";" })
        return (cookie, try #require(body["csrfToken"] as? String))
    }

    @Test("No credentials, a wrong token, or a revoked one: 401, and nothing is read")
    func unauthenticated() async throws {
        try await withDiaryAPI { client in
            _ = try await client.create(title: "Private")
            for anonymous in [client.signed(with: nil), client.signed(with: "diary_wrong")] {
                let (response, error) = try await anonymous.send(.get, "/api/v1/entries")
                #expect(response.status == .unauthorized)
                #expect(error["error"] as? String == "unauthenticated")
            }
            let writer = try #require(try await client.accounts.user(named: "writer"))
            let spare = try await client.accounts.createToken(named: "spare", for: writer)
            #expect(try await client.signed(with: spare).send(.get, "/api/v1/entries").0.status == .ok)
            try await client.accounts.revokeToken(named: "spare", of: writer)
            #expect(try await client.signed(with: spare).send(.get, "/api/v1/entries").0.status == .unauthorized)
        }
    }

    @Test("Another user's entries are 404, never 403, and unchanged")
    func otherUsersEntriesAreNotFound() async throws {
        try await withDiaryAPI { client in
            let id = try await client.create(title: "Mine alone")
            let other = try await client.accounts.addUser(name: "other", password: "another pw")
            let otherToken = try await client.accounts.createToken(named: "t", for: other)
            let intruder = client.signed(with: otherToken)
            for (method, uri) in [(HTTPRequest.Method.get, "/api/v1/entries/\(id)"), (.delete, "/api/v1/entries/\(id)"),
                                  (.post, "/api/v1/entries/\(id)/restore"), (.delete, "/api/v1/trash/\(id)")] {
                #expect(try await intruder.send(method, uri).0.status == .notFound)
            }
            let (put, _) = try await intruder.send(.put, "/api/v1/entries/\(id)", json: #"{"title":"x","body":""}"#, headers: [.ifMatch: "\"1\""])
            #expect(put.status == .notFound)
            let (_, list) = try await intruder.send(.get, "/api/v1/entries")
            #expect((list["entries"] as? [Any])?.isEmpty == true)
            let (_, found) = try await intruder.send(.get, "/api/v1/search?q=Mine")
            #expect((found["results"] as? [Any])?.isEmpty == true)
            let (_, mine) = try await client.send(.get, "/api/v1/entries/\(id)")
            #expect(mine["title"] as? String == "Mine alone")
            #expect(mine["version"] as? Int == 1)
        }
    }

    @Test("A session needs its CSRF token and the app's own origin for every change")
    func csrf() async throws {
        try await withDiaryAPI { client in
            let (cookie, csrf) = try await Self.logIn(client)
            let browser = client.signed(with: nil)
            let body = #"{"title":"t","body":""}"#
            #expect(try await browser.send(.get, "/api/v1/entries", headers: [.cookie: cookie]).0.status == .ok)
            #expect(try await browser.send(.post, "/api/v1/entries", json: body, headers: [.cookie: cookie]).0.status == .forbidden)
            let crossSite: HTTPFields = [.cookie: cookie, HTTPField.Name("X-CSRF-Token")!: csrf, HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]
            #expect(try await browser.send(.post, "/api/v1/entries", json: body, headers: crossSite).0.status == .forbidden)
            let sameSite: HTTPFields = [.cookie: cookie, HTTPField.Name("X-CSRF-Token")!: csrf, HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]
            #expect(try await browser.send(.post, "/api/v1/entries", json: body, headers: sameSite).0.status == .created)
        }
    }

    @Test("Logging out ends the session; so does a password change, for every session")
    func sessionsEnd() async throws {
        try await withDiaryAPI { client in
            let browser = client.signed(with: nil)
            let (cookie, csrf) = try await Self.logIn(client)
            let (_, who) = try await browser.send(.get, "/api/v1/session", headers: [.cookie: cookie])
            #expect((who["user"] as? [String: Any])?["name"] as? String == "writer")
            let (out, _) = try await browser.send(.delete, "/api/v1/session", headers: [.cookie: cookie, HTTPField.Name("X-CSRF-Token")!: csrf])
            #expect(out.status == .noContent)
            #expect(try await browser.send(.get, "/api/v1/entries", headers: [.cookie: cookie]).0.status == .unauthorized)

            let (first, _) = try await Self.logIn(client)
            let (second, _) = try await Self.logIn(client)
            try await client.accounts.setPassword(name: "writer", password: "a new password")
            for cookie in [first, second] {
                #expect(try await browser.send(.get, "/api/v1/entries", headers: [.cookie: cookie]).0.status == .unauthorized)
            }
        }
    }

    @Test("A session unused for 30 days has ended")
    func expiry() async throws {
        try await withDiaryAPI { client in
            let writer = try #require(try await client.accounts.user(named: "writer"))
            let (used, _) = try await client.accounts.startSession(for: writer)
            let (forgotten, _) = try await client.accounts.startSession(for: writer)
            #expect(try await client.accounts.session(token: used, now: Date().addingTimeInterval(29 * 86_400)) != nil)
            #expect(try await client.accounts.session(token: forgotten, now: Date().addingTimeInterval(31 * 86_400)) == nil)
            // Use keeps a session alive: 31 days from its start, but 2 from its last use.
            #expect(try await client.accounts.session(token: used, now: Date().addingTimeInterval(31 * 86_400)) != nil)
        }
    }

    @Test("Wrong passwords and unknown names get the same answer; after 5 failures, logins wait")
    func throttling() async throws {
        try await withDiaryAPI { client in
            let anonymous = client.signed(with: nil)
            let (wrong, wrongBody) = try await anonymous.send(.post, "/api/v1/session", json: #"{"name":"writer","password":"not it at all"}"#)
            let (unknown, unknownBody) = try await anonymous.send(.post, "/api/v1/session", json: #"{"name":"nobody","password":"not it at all"}"#)
            #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
            #expect(wrongBody["message"] as? String == unknownBody["message"] as? String)
            for _ in 0..<4 { _ = try await anonymous.send(.post, "/api/v1/session", json: #"{"name":"writer","password":"still wrong"}"#) }
            let (waited, body) = try await anonymous.send(.post, "/api/v1/session", json: #"{"name":"writer","password":"correct horse"}"#)
            #expect(waited.status == .tooManyRequests)
            #expect(body["error"] as? String == "too_many_attempts")
            #expect(waited.headers[.retryAfter] != nil)
        }
    }

    @Test("Passwords being checked hold up no other request")
    func loginsLeaveTheServerFree() async throws {
        try await withDiaryAPI { client in
            _ = try await client.create(title: "Still here")
            // Unknown names cost a full hash at cost 12 (a quarter of a second), as known ones do.
            // One login per thread of Swift's task pool: hashed there, they took every thread.
            let logins = min(ProcessInfo.processInfo.activeProcessorCount, 4)
            let answered = Answered()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<logins {
                    group.addTask {
                        let (response, _) = try await client.signed(with: nil).send(
                            .post, "/api/v1/session", json: #"{"name":"nobody \#(n)","password":"not it at all"}"#)
                        #expect(response.status == .unauthorized)
                        await answered.login()
                    }
                }
                try await Task.sleep(for: .milliseconds(50))
                let (list, body) = try await client.send(.get, "/api/v1/entries")
                #expect(list.status == .ok && "\(body)".contains("Still here"))
                #expect(await answered.logins == 0, "the list waited for the logins' hashing")
                try await group.waitForAll()
            }
            #expect(await answered.logins == logins)
        }
    }

    @Test("Pages carry the content and referrer policies; every response carries nosniff")
    func securityHeaders() async throws {
        try await withDiaryAPI { client in
            let page = try await client.execute(uri: "/", method: .get)
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("script-src 'self'"))
            #expect(policy.contains("frame-ancestors 'none'"))
            #expect(!policy.contains("unsafe-inline"))
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
            for uri in ["/", "/js/main.js", "/api/v1/entries"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
            }
        }
    }
}

@Suite("The first account's setup")
struct SetupTests {
    @Test("Setup appears on a new diary, adopts the entries already there, and is gone after")
    func setupOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diary-setup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try SQLiteDatabase(path: folder.appendingPathComponent("diary.sqlite").path)
        // Written with the command line before any account: the local owner's.
        _ = try await database.diary(of: .localOwner).create(try EntryText(title: "From the terminal", body: ""), id: UUID()).entry
        let code = SetupCode()
        let app = buildApplication(storage: SQLiteStorage(database: database), settings: ServerSettings(port: 0, bcryptCost: 4, setupCode: code), logger: .init(label: "test"))
        // A request in memory comes from no address, so not from this computer: it needs the code.
        try await app.test(.router) { client in
            let before = try await client.execute(uri: "/api/v1/session", method: .get)
            #expect(String(buffer: before.body).contains("\"setupNeeded\":true"))
            #expect(String(buffer: before.body).contains("\"setupCodeNeeded\":true"))
            let refused = try await client.execute(uri: "/api/v1/setup", method: .post, headers: [.contentType: "application/json"],
                                                   body: ByteBuffer(string: #"{"name":"mina","password":"long enough"}"#))
            #expect(refused.status == .forbidden)
            let created = try await client.execute(uri: "/api/v1/setup", method: .post, headers: [.contentType: "application/json"],
                                                   body: ByteBuffer(string: #"{"name":"mina","password":"long enough","setupCode":"\#(code.printed)"}"#))
            #expect(created.status == .created)
            let cookie = String(try #require(created.headers[.setCookie]).prefix { $0 != ";" })
            let list = try await client.execute(uri: "/api/v1/entries", method: .get, headers: [.cookie: cookie])
            #expect(String(buffer: list.body).contains("From the terminal"))
            let again = try await client.execute(uri: "/api/v1/setup", method: .post, headers: [.contentType: "application/json"],
                                                body: ByteBuffer(string: #"{"name":"eve","password":"long enough"}"#))
            #expect(again.status == .notFound)
            let after = try await client.execute(uri: "/api/v1/session", method: .get)
            #expect(String(buffer: after.body).contains("\"setupNeeded\":false"))
        }
    }
}

/// How many logins have been answered so far.
private actor Answered {
    var logins = 0
    func login() { logins += 1 }
}
