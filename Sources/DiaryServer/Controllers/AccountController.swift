import DiaryCore
import Foundation
import Hummingbird

/// `/api/v1/account`: the writer's own password, signed-in devices and access tokens (the web
/// app's settings). Each acts on the caller's own account only: another user's session or token
/// is not found (404), as one no one has. They need a browser session: an access token reads and
/// writes the diary, but a script holding one (or whoever took it) may not list the owner's
/// devices, sign them out, revoke the owner's tokens or change the password (403).
struct AccountController {
    typealias Context = DiaryRequestContext
    let accounts: Accounts

    func addRoutes(to group: RouterGroup<Context>) {
        group.post("account/password", use: changePassword)
        group.get("account/sessions", use: sessions)
        group.delete("account/sessions/:session", use: endSession)
        group.get("account/tokens", use: tokens)
        group.delete("account/tokens/:token", use: revokeToken)
    }

    /// The user of a browser session; 403 for an access token.
    static func requireSession(_ context: Context) throws -> User {
        guard case .session(let session, _) = context.identity else {
            if context.identity == nil { throw APIError.unauthenticated }
            throw APIError(status: .forbidden, code: .sessionRequired,
                           message: "Passwords, devices and access tokens are managed from the diary's own page, not with an access token.")
        }
        return session.user
    }

    struct PasswordChangeRequest: Decodable {
        var currentPassword: String
        var newPassword: String
    }

    struct Ended: Encodable {
        var endedSessions: Int
        var endedTokens: Int
    }

    /// A new password, given the current one. Every other session and every access token of the
    /// writer ends (whoever knew the old password may have used it); the browser that asked stays
    /// logged in. Wrong current passwords count with failed logins, so a session left open on a
    /// shared computer cannot be used to guess the password faster than the login form could.
    @Sendable func changePassword(_ request: Request, context: Context) async throws -> Response {
        let user = try Self.requireSession(context)
        var request = request
        let change = try await request.decodeJSON(PasswordChangeRequest.self)
        try User.checkPassword(change.newPassword)
        let subjects = ["name:" + User.nameKey(user.name), "address:" + context.clientAddress]
        guard let attempt = try await accounts.reserveLoginAttempt(subjects, allowed: SessionController.allowedFailures,
                                                                   within: SessionController.throttleWindow) else {
            throw APIError(status: .tooManyRequests, code: .tooManyAttempts,
                           message: "Too many wrong passwords: wait \(SessionController.throttleMinutes) minutes, then try again.",
                           headers: [.retryAfter: String(Int(SessionController.throttleWindow))])
        }
        guard let verified = try await accounts.verify(name: user.name, password: change.currentPassword), verified.id == user.id else {
            throw APIError(status: .badRequest, code: .wrongPassword, message: "The current password is wrong.")
        }
        try await accounts.loginSucceeded(attempt)
        var keep: String?  // always a session here (requireSession)
        if case .session(_, let token) = context.identity { keep = token }
        let ended = try await accounts.setPassword(name: user.name, password: change.newPassword, keepingSession: keep)
        return try JSONResponse.make(Ended(endedSessions: ended.endedSessions, endedTokens: ended.endedTokens), for: request)
    }

    struct DeviceJSON: Encodable {
        var id: String
        var label: String
        var createdAt: Date
        var lastUsedAt: Date
        /// The session of the browser asking.
        var current: Bool
    }

    struct Devices: Encodable {
        var sessions: [DeviceJSON]
    }

    /// The writer's signed-in browsers, the most recently used first. When last used is noted at
    /// most once a minute.
    @Sendable func sessions(_ request: Request, context: Context) async throws -> Response {
        let user = try Self.requireSession(context)
        var current: String?
        if case .session(_, let token) = context.identity { current = Accounts.sessionID(token: token) }
        let list = try await accounts.sessions(of: user).map {
            DeviceJSON(id: $0.id, label: $0.label, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, current: $0.id == current)
        }
        return try JSONResponse.make(Devices(sessions: list), for: request)
    }

    /// Signs a device out: its session ends at once, on every server instance.
    @Sendable func endSession(_ request: Request, context: Context) async throws -> Response {
        let user = try Self.requireSession(context)
        guard let id = context.parameters.get("session"), try await accounts.endSession(id: id, of: user) else {
            throw APIError(status: .notFound, code: .notFound, message: "No signed-in device of yours has this id; it may have signed out already.")
        }
        return Response(status: .noContent)
    }

    struct TokenJSON: Encodable {
        var id: String
        var name: String
        var createdAt: Date
        var lastUsedAt: Date?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(lastUsedAt, forKey: .lastUsedAt)
        }

        enum CodingKeys: String, CodingKey { case id, name, createdAt, lastUsedAt }
    }

    struct Tokens: Encodable {
        var tokens: [TokenJSON]
    }

    /// The writer's access tokens by name (`diary token create` makes them): never the tokens.
    @Sendable func tokens(_ request: Request, context: Context) async throws -> Response {
        let user = try Self.requireSession(context)
        let list = try await accounts.tokenInfos(of: user).map { TokenJSON(id: $0.id, name: $0.name, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt) }
        return try JSONResponse.make(Tokens(tokens: list), for: request)
    }

    @Sendable func revokeToken(_ request: Request, context: Context) async throws -> Response {
        let user = try Self.requireSession(context)
        guard let id = context.parameters.get("token"), try await accounts.revokeToken(id: id, of: user) else {
            throw APIError(status: .notFound, code: .notFound, message: "You have no access token with this id; it may have been revoked already.")
        }
        return Response(status: .noContent)
    }
}
