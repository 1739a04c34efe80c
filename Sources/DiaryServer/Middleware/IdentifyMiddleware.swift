import DiaryCore
import Hummingbird

/// Works out who is asking: a bearer token, else a session cookie. It refuses nothing itself
/// (the login and setup routes are open); `RequireUserMiddleware` guards the diary.
///
/// A cookie whose session is over (ended elsewhere, by a new password, or by time) is answered,
/// whatever the answer, with the session's cookies expired and the browser's cache of the site
/// emptied (`SessionCookies.ended`): the page then lets go of what it kept of its writer, and the
/// next person at that browser finds nothing of theirs, online or, later, offline.
struct IdentifyMiddleware: RouterMiddleware {
    typealias Context = DiaryRequestContext
    static let cookieName = SessionCookies.session

    let accounts: Accounts

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let authorization = request.headers[.authorization] {
            // A token that is wrong or revoked is an error, not a silent fall back to no one.
            // The scheme's name is case-insensitive (RFC 9110 §11.1): "bearer" is "Bearer".
            guard authorization.utf8.count > 7, authorization.prefix(7).lowercased() == "bearer ",
                  let user = try await accounts.user(forToken: String(authorization.dropFirst(7).drop { $0 == " " }))
            else { throw APIError.unauthenticated }
            context.identity = .accessToken(user)
        } else if let token = request.cookies[Self.cookieName]?.value, !token.isEmpty {
            guard let session = try await accounts.session(token: token) else {
                return try await Self.sessionOver(request, context, next)
            }
            context.identity = .session(session, token: token)
        }
        return try await next(request, context)
    }

    /// The answer to a request whose session is over, with the cookies and cache let go.
    private static func sessionOver(_ request: Request, _ context: Context,
                                    _ next: (Request, Context) async throws -> Response) async throws -> Response {
        let ended = SessionCookies.ended(secure: context.origin.https)
        do {
            var response = try await next(request, context)
            // A login (or setup) sent with the dead cookie sets a new session: that one stands.
            let newSession = response.headers[values: .setCookie].contains { $0.hasPrefix(SessionCookies.session + "=") }
            if !newSession { response.headers.append(contentsOf: ended) }
            return response
        } catch var error as APIError {
            error.headers.append(contentsOf: ended)
            throw error
        }
    }
}
