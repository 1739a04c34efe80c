import DiaryCore
import DiaryPasswords
import Foundation
import Testing

/// What every backend's `AccountRows` must do, through `Accounts`, whatever keeps them.
@Suite("Every store keeps accounts, sessions, tokens and login throttles the same way")
struct AccountsConformanceTests {
    /// A new, empty storage's accounts, hashing at bcrypt's lowest cost to keep the suite quick.
    static func accounts(_ backend: StoreBackend) async throws -> (any Storage, Accounts) {
        let storage = try await backend.makeStorage()
        return (storage, storage.accounts(passwords: BcryptPasswords(cost: 4)))
    }

    @Test("An account is found by any spelling of its name, and the first one adopts the entries written before it",
          arguments: StoreBackend.allCases)
    func users(backend: StoreBackend) async throws {
        let (storage, accounts) = try await Self.accounts(backend)
        let local = storage.diary(of: .localOwner)
        _ = try await local.create(try EntryText(title: "Before any account", body: ""), id: UUID(), tags: ["early", "이른"]).entry
        #expect(try await accounts.userCount() == 0)

        let mina = try await accounts.addUser(name: "Mina", password: "correct horse")
        let joon = try await accounts.addUser(name: "joon", password: "battery staple")
        #expect(try await accounts.userCount() == 2)
        #expect(try await accounts.users().map(\.name) == ["joon", "Mina"], "by name, whatever the case")
        #expect(try await accounts.user(named: "MINA") == mina)
        #expect(try await accounts.user(named: "Ｍｉｎａ") == mina)
        #expect(try await accounts.user(named: "nobody") == nil)

        // The first account took the local entries; the second has none.
        #expect(try await storage.diary(of: mina.id).count() == 1)
        #expect(try await storage.diary(of: joon.id).count() == 0)
        #expect(try await local.count() == 0)
        // Their tags with them: the tag list, a tag's list and a rename find them.
        let minas = storage.diary(of: mina.id)
        #expect(try await minas.tags() == [TagCount(tag: "early", count: 1), TagCount(tag: "이른", count: 1)])
        #expect(try await minas.list(after: nil, limit: 5, filter: try EntryFilter(tags: ["early"])).entries.count == 1)
        #expect(try await minas.renameTag("early", to: "first") == 1)
        #expect(try await local.tags().isEmpty)

        await #expect(throws: AccountError.nameTaken("mina")) { try await accounts.addUser(name: "mina", password: "another one") }
        await #expect(throws: AccountError.alreadySetUp) {
            try await accounts.addUser(name: "third", password: "another one", onlyIfFirst: true)
        }
        await #expect(throws: AccountError.shortPassword(minimum: User.minimumPasswordLength)) {
            try await accounts.addUser(name: "third", password: "short")
        }
    }

    @Test("A password is checked, and a wrong one or an unknown name lets no one in", arguments: StoreBackend.allCases)
    func passwords(backend: StoreBackend) async throws {
        let (_, accounts) = try await Self.accounts(backend)
        let mina = try await accounts.addUser(name: "mina", password: "correct horse")
        #expect(try await accounts.verify(name: "MINA", password: "correct horse") == mina)
        #expect(try await accounts.verify(name: "mina", password: "wrong horse") == nil)
        #expect(try await accounts.verify(name: "nobody", password: "correct horse") == nil)
        await #expect(throws: AccountError.noSuchUser("nobody")) { try await accounts.setPassword(name: "nobody", password: "new password") }
    }

    @Test("Sessions live until logged out or unused for 30 days; a new password ends every session and token",
          arguments: StoreBackend.allCases)
    func sessions(backend: StoreBackend) async throws {
        let (_, accounts) = try await Self.accounts(backend)
        let mina = try await accounts.addUser(name: "mina", password: "correct horse")
        let (token, session) = try await accounts.startSession(for: mina)
        #expect(session.user == mina && !session.csrfToken.isEmpty)
        #expect(try await accounts.session(token: token) == session)
        #expect(try await accounts.session(token: token + "x") == nil)

        // Used 29 days later it lives on, and its use is noted: 30 days after that it has ended.
        let later = Date().addingTimeInterval(29 * 24 * 3600)
        #expect(try await accounts.session(token: token, now: later) == session)
        #expect(try await accounts.session(token: token, now: later.addingTimeInterval(29 * 24 * 3600)) == session)
        #expect(try await accounts.session(token: token, now: later.addingTimeInterval(60 * 24 * 3600)) == nil)
        #expect(try await accounts.session(token: token) == nil, "an ended session is gone")

        let (other, _) = try await accounts.startSession(for: mina)
        try await accounts.endSession(token: other)
        #expect(try await accounts.session(token: other) == nil)

        let (kept, _) = try await accounts.startSession(for: mina)
        let apiToken = try await accounts.createToken(named: "phone", for: mina)
        let change = try await accounts.setPassword(name: "Mina", password: "a new password")
        #expect(change == PasswordChange(endedSessions: 1, endedTokens: 1))
        #expect(try await accounts.session(token: kept) == nil)
        #expect(try await accounts.user(forToken: apiToken) == nil)
        #expect(try await accounts.verify(name: "mina", password: "a new password") == mina)
    }

    @Test("Signed-in devices are listed by an opaque id with their label, and each user signs out only their own",
          arguments: StoreBackend.allCases)
    func devices(backend: StoreBackend) async throws {
        let (_, accounts) = try await Self.accounts(backend)
        let mina = try await accounts.addUser(name: "mina", password: "correct horse")
        let joon = try await accounts.addUser(name: "joon", password: "correct horse")
        let (phone, _) = try await accounts.startSession(for: mina, label: "Chrome · Android")
        let (laptop, _) = try await accounts.startSession(for: mina, label: "Firefox · Linux")
        let (joons, _) = try await accounts.startSession(for: joon, label: "Safari · iPhone")

        let listed = try await accounts.sessions(of: mina)
        #expect(Set(listed.map(\.label)) == ["Chrome · Android", "Firefox · Linux"])
        #expect(Set(listed.map(\.id)) == [Accounts.sessionID(token: phone), Accounts.sessionID(token: laptop)])
        for token in [phone, laptop] {
            #expect(!listed.contains { $0.id == SecretToken.hash(token) || SecretToken.hash(token).contains($0.id) || $0.id == token })
        }
        // Unused for 30 days, a session has ended: it is not listed.
        #expect(try await accounts.sessions(of: mina, now: Date().addingTimeInterval(31 * 24 * 3600)).isEmpty)

        #expect(try await accounts.endSession(id: Accounts.sessionID(token: joons), of: mina) == false, "joon's is not mina's")
        #expect(try await accounts.session(token: joons) != nil)
        #expect(try await accounts.endSession(id: Accounts.sessionID(token: phone), of: mina))
        #expect(try await accounts.session(token: phone) == nil)
        #expect(try await accounts.endSession(id: Accounts.sessionID(token: phone), of: mina) == false, "ended already")
        #expect(try await accounts.sessions(of: mina).map(\.label) == ["Firefox · Linux"])
    }

    @Test("A new password set from a browser keeps that browser's session and ends the others and the tokens",
          arguments: StoreBackend.allCases)
    func passwordKeepsItsSession(backend: StoreBackend) async throws {
        let (_, accounts) = try await Self.accounts(backend)
        let mina = try await accounts.addUser(name: "mina", password: "correct horse")
        let joon = try await accounts.addUser(name: "joon", password: "correct horse")
        let (laptop, laptopSession) = try await accounts.startSession(for: mina)
        let (other, _) = try await accounts.startSession(for: mina)
        let (joons, _) = try await accounts.startSession(for: joon)
        let script = try await accounts.createToken(named: "script", for: mina)

        let change = try await accounts.setPassword(name: "mina", password: "a new password", keepingSession: laptop)

        #expect(change == PasswordChange(endedSessions: 1, endedTokens: 1))
        #expect(try await accounts.session(token: laptop) == laptopSession, "the same session, CSRF token and all")
        #expect(try await accounts.session(token: other) == nil)
        #expect(try await accounts.user(forToken: script) == nil)
        #expect(try await accounts.session(token: joons) != nil)
        #expect(try await accounts.verify(name: "mina", password: "a new password") == mina)
    }

    @Test("Access tokens are revoked by an id of their own, by their user only", arguments: StoreBackend.allCases)
    func tokenIDs(backend: StoreBackend) async throws {
        let (_, accounts) = try await Self.accounts(backend)
        let mina = try await accounts.addUser(name: "mina", password: "correct horse")
        let joon = try await accounts.addUser(name: "joon", password: "correct horse")
        let token = try await accounts.createToken(named: "phone", for: mina)
        let listed = try await accounts.tokenInfos(of: mina)
        #expect(listed.map(\.name) == ["phone"])
        let id = try #require(listed.first?.id)
        #expect(id != token && id != SecretToken.hash(token))

        #expect(try await accounts.revokeToken(id: id, of: joon) == false)
        #expect(try await accounts.user(forToken: token) == mina)
        #expect(try await accounts.revokeToken(id: id, of: mina))
        #expect(try await accounts.user(forToken: token) == nil)
        #expect(try await accounts.revokeToken(id: id, of: mina) == false)
    }

    @Test("Access tokens find their user, are listed by name only, and end when revoked", arguments: StoreBackend.allCases)
    func tokens(backend: StoreBackend) async throws {
        let (_, accounts) = try await Self.accounts(backend)
        let mina = try await accounts.addUser(name: "mina", password: "correct horse")
        let joon = try await accounts.addUser(name: "joon", password: "correct horse")
        let phone = try await accounts.createToken(named: "phone", for: mina)
        #expect(phone.hasPrefix("diary_"))
        #expect(try await accounts.user(forToken: phone) == mina)
        #expect(try await accounts.user(forToken: "diary_unknown") == nil)
        await #expect(throws: AccountError.tokenNameTaken("phone")) { try await accounts.createToken(named: "phone", for: mina) }
        // Names are each user's own.
        let joons = try await accounts.createToken(named: "phone", for: joon)
        #expect(try await accounts.tokens(of: mina).map(\.name) == ["phone"])

        try await accounts.revokeToken(named: "phone", of: mina)
        #expect(try await accounts.user(forToken: phone) == nil)
        #expect(try await accounts.user(forToken: joons) == joon)
        #expect(try await accounts.tokens(of: mina).isEmpty)
        await #expect(throws: AccountError.noSuchToken("phone")) { try await accounts.revokeToken(named: "phone", of: mina) }
    }

    @Test("Login attempts are counted per subject within the window; a success gives its own place back",
          arguments: StoreBackend.allCases)
    func throttle(backend: StoreBackend) async throws {
        let (_, accounts) = try await Self.accounts(backend)
        let now = Date()
        let subjects = ["name:mina", "address:192.0.2.1"]
        let first = try #require(try await accounts.reserveLoginAttempt(subjects, allowed: 2, within: 900, now: now))
        #expect(try await accounts.reserveLoginAttempt(subjects, allowed: 2, within: 900, now: now) != nil)
        #expect(try await accounts.reserveLoginAttempt(subjects, allowed: 2, within: 900, now: now) == nil, "a third in the window")
        // Another name from the same address is refused too: each subject counts.
        #expect(try await accounts.reserveLoginAttempt(["name:joon", "address:192.0.2.1"], allowed: 2, within: 900, now: now) == nil)
        #expect(try await accounts.reserveLoginAttempt(["name:joon", "address:192.0.2.2"], allowed: 2, within: 900, now: now) != nil)

        try await accounts.loginSucceeded(first)
        #expect(try await accounts.reserveLoginAttempt(subjects, allowed: 2, within: 900, now: now) != nil, "the place given back")
        #expect(try await accounts.reserveLoginAttempt(subjects, allowed: 2, within: 900, now: now) == nil)
        // Once the window has passed, attempts are allowed again.
        #expect(try await accounts.reserveLoginAttempt(subjects, allowed: 2, within: 900, now: now.addingTimeInterval(901)) != nil)
    }
}
