import DiaryCore
import Foundation
import HTTPTypes
import Hummingbird

/// `/api/v1/session` (log in, who am I, log out) and `/api/v1/setup` (the first account).
struct SessionController {
    let accounts: Accounts
    let origins: OriginCheck
    /// Printed by `diary serve` on a diary with no account: a setup from another computer needs
    /// it (see `SetupCode`). `nil`: only this computer may set up.
    var setupCode: SetupCode? = nil
    /// Whether new entries get weather: when not, the web app asks for no location.
    var weather = true
    /// Days an entry stays in the trash (`--trash-days`); `nil`: until it is emptied by hand.
    var trashDays: Int? = Diary.trashDays

    /// After this many failed logins for a name or from an address within `throttleWindow`,
    /// further attempts are refused until the window has passed.
    static let allowedFailures = 5
    static let throttleWindow: TimeInterval = 15 * 60
    /// The window in whole minutes, as messages say it (and the web app, `WebAppLimits`).
    static var throttleMinutes: Int { Int(throttleWindow / 60) }

    func addRoutes(to group: RouterGroup<DiaryRequestContext>) {
        group.get("session", use: current)
        group.post("session", use: logIn)
        group.delete("session", use: logOut)
        group.get("setup", use: setupNeeded)
        group.post("setup", use: setUp)
    }

    struct Credentials: Decodable {
        var name: String
        var password: String
    }

    struct SessionBody: Encodable {
        struct Named: Encodable { var name: String }
        var user: Named?
        /// Echoed in `X-CSRF-Token` by every state-changing request of this session.
        var csrfToken: String?
        /// True on a new diary with no account yet: the web app shows the setup form.
        var setupNeeded: Bool
        /// Present (true) when that setup must carry the code `diary serve` printed.
        var setupCodeNeeded: Bool? = nil
        /// Whether the server records new entries' weather (`diary serve --weather off`: false).
        var weather = true
        /// Days an entry stays in the trash before the server deletes it (`--trash-days`);
        /// `nil`: kept until the writer empties it. Only said to someone logged in.
        var trashDays: Int? = nil
        var loggedIn: Bool { user != nil }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(user, forKey: .user)
            try container.encode(csrfToken, forKey: .csrfToken)
            try container.encode(setupNeeded, forKey: .setupNeeded)
            try container.encodeIfPresent(setupCodeNeeded, forKey: .setupCodeNeeded)
            try container.encode(weather, forKey: .weather)
            if loggedIn { try container.encode(trashDays, forKey: .trashDays) }
        }

        enum CodingKeys: String, CodingKey { case user, csrfToken, setupNeeded, setupCodeNeeded, weather, trashDays }
    }

    /// Who is logged in, if anyone: a page opening asks this first, and an answer of no one is
    /// not an error (the page then shows the login, or the setup on a new diary).
    @Sendable func current(_ request: Request, context: DiaryRequestContext) async throws -> Response {
        guard let identity = context.identity else {
            let needed = try await accounts.userCount() == 0
            return try JSONResponse.make(SessionBody(user: nil, csrfToken: nil, setupNeeded: needed,
                                                     setupCodeNeeded: setupCodeNeeded(needed, request, context), weather: weather))
        }
        var csrf: String?, token: String?
        if case .session(let session, let sessionToken) = identity { (csrf, token) = (session.csrfToken, sessionToken) }
        var response = try JSONResponse.make(SessionBody(user: .init(name: identity.user.name), csrfToken: csrf, setupNeeded: false,
                                                         weather: weather, trashDays: trashDays))
        if let token {
            // Both cookies again, with the same lifetime: the session lives 30 days from its last
            // use, and so do they; the device mark never outlives the session's cookie (the copy
            // the page keeps is bound to it), and a browser logged in before there was a mark gets one.
            for cookie in SessionCookies.cookies(token: token, maxAge: Int(Accounts.sessionLifetime), secure: origins.isHTTPS(context)) {
                response.setCookie(cookie)
            }
        }
        return response
    }

    @Sendable func logIn(_ request: Request, context: DiaryRequestContext) async throws -> Response {
        try origins.check(request, context)
        var request = request
        let credentials = try await request.decodeJSON(Credentials.self)
        // Counted before the password is checked, in one write: attempts that arrive together
        // are each counted, and the sixth in a window is refused however they are timed.
        // (No name longer than 64 characters is an account's: the rest is not kept.)
        let subjects = ["name:" + User.nameKey(String(credentials.name.prefix(65))), "address:" + context.clientAddress]
        guard let attempt = try await accounts.reserveLoginAttempt(subjects, allowed: Self.allowedFailures, within: Self.throttleWindow) else {
            throw APIError(status: .tooManyRequests, code: .tooManyAttempts,
                           message: "Too many failed logins: wait \(Self.throttleMinutes) minutes, then try again.",
                           headers: [.retryAfter: String(Int(Self.throttleWindow))])
        }
        // The session is kept only while the password checked is still the account's: one
        // changed meanwhile (on any instance) lets nobody in with the old one.
        guard let (token, session) = try await accounts.signIn(name: credentials.name, password: credentials.password,
                                                               label: DeviceLabel.from(userAgent: request.headers[.userAgent]))
        else {
            // One message whether or not the name exists.
            throw APIError(status: .unauthorized, code: .badLogin, message: "The name or the password is wrong.")
        }
        try await accounts.loginSucceeded(attempt)
        return try sessionResponse(token: token, session: session, context: context, status: .ok)
    }

    @Sendable func logOut(_ request: Request, context: DiaryRequestContext) async throws -> Response {
        try origins.check(request, context)
        if case .session(_, let token) = context.identity { try await accounts.endSession(token: token) }
        // Its cookies, and the photos the browser's cache kept, go with it.
        return Response(status: .noContent, headers: SessionCookies.ended(secure: origins.isHTTPS(context)))
    }

    struct SetupNeeded: Encodable {
        var needed: Bool
        var codeNeeded: Bool?
    }

    @Sendable func setupNeeded(_ request: Request, context: DiaryRequestContext) async throws -> Response {
        let needed = try await accounts.userCount() == 0
        return try JSONResponse.make(SetupNeeded(needed: needed, codeNeeded: setupCodeNeeded(needed, request, context)))
    }

    /// Makes the first account, which adopts every entry already in the file. Gone (404) once
    /// any account exists.
    @Sendable func setUp(_ request: Request, context: DiaryRequestContext) async throws -> Response {
        try origins.check(request, context)
        guard try await accounts.userCount() == 0 else { throw APIError.setupGone }
        var request = request
        let credentials = try await request.decodeJSON(SetupCredentials.self)
        let codeTaken = try takeSetupCode(credentials.setupCode, request, context)
        let user: User
        do {
            user = try await accounts.addUser(name: credentials.name, password: credentials.password, onlyIfFirst: true)
        } catch AccountError.alreadySetUp {
            throw APIError.setupGone
        } catch {
            if codeTaken { setupCode?.giveBack() }  // nothing was made: the code still stands
            throw error
        }
        return try await startSession(for: user, request: request, context: context, status: .created)
    }

    private func startSession(for user: User, request: Request, context: DiaryRequestContext,
                              status: HTTPResponse.Status) async throws -> Response {
        let (token, session) = try await accounts.startSession(for: user, label: DeviceLabel.from(userAgent: request.headers[.userAgent]))
        return try sessionResponse(token: token, session: session, context: context, status: status)
    }

    /// The answer that hands a browser its new session: the cookie, and what the page needs.
    private func sessionResponse(token: String, session: Session, context: DiaryRequestContext,
                                 status: HTTPResponse.Status) throws -> Response {
        var response = try JSONResponse.make(SessionBody(user: .init(name: session.user.name), csrfToken: session.csrfToken, setupNeeded: false,
                                                         weather: weather, trashDays: trashDays),
                                             status: status)
        for cookie in SessionCookies.cookies(token: token, maxAge: Int(Accounts.sessionLifetime), secure: origins.isHTTPS(context)) {
            response.setCookie(cookie)
        }
        return response
    }
}

extension APIError {
    static let setupGone = APIError(status: .notFound, code: .notFound, message: "This diary is set up already: log in instead.")
}
