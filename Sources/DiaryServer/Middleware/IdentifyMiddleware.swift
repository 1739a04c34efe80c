import DiaryCore
import Hummingbird

/// Works out who is asking: a bearer token, else a session cookie. It refuses nothing itself
/// (the login and setup routes are open); `RequireUserMiddleware` guards the diary.
struct IdentifyMiddleware: RouterMiddleware {
    typealias Context = DiaryRequestContext
    static let cookieName = "diary_session"

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
        } else if let token = request.cookies[Self.cookieName]?.value, let session = try await accounts.session(token: token) {
            context.identity = .session(session, token: token)
        }
        return try await next(request, context)
    }
}
