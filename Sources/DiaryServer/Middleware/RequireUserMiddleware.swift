import HTTPTypes
import Hummingbird

/// Guards the diary: no user, no entry (401). A browser's state-changing request must also come
/// from the app's own origin and carry its session's CSRF token (403 otherwise), so another
/// site cannot make a logged-in browser write, delete or restore anything.
struct RequireUserMiddleware: RouterMiddleware {
    typealias Context = DiaryRequestContext
    let origins: OriginCheck

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let identity = context.identity else { throw APIError.unauthenticated }
        if case .session(let session, _) = identity, !request.method.isSafe {
            try origins.check(request, context)
            guard request.headers[.csrfToken] == session.csrfToken else {
                throw APIError(status: .forbidden, code: .csrf, message: "This request did not come from the diary's own page; reload the page and try again.")
            }
        }
        return try await next(request, context)
    }
}

/// Whether a browser request comes from the app's own origin, by `Sec-Fetch-Site` and `Origin`.
/// The origin expected is the public one: behind a trusted proxy, the scheme and host it says
/// the client used (`context.origin`, read by `HostCheckMiddleware`).
struct OriginCheck: Sendable {
    func isHTTPS(_ context: DiaryRequestContext) -> Bool {
        context.origin.https
    }

    func check(_ request: Request, _ context: DiaryRequestContext) throws {
        if let site = request.headers[.secFetchSite], site != "same-origin", site != "none" {
            throw APIError.crossOrigin
        }
        if let origin = request.headers[.origin] {
            let host = context.origin.forwardedHost ?? request.head.authority ?? ""
            let expected = (isHTTPS(context) ? "https://" : "http://") + host
            guard origin == expected else { throw APIError.crossOrigin }
        }
    }
}

extension HTTPRequest.Method {
    var isSafe: Bool { self == .get || self == .head || self == .options }
}

extension HTTPField.Name {
    static let csrfToken = Self("X-CSRF-Token")!
    static let secFetchSite = Self("Sec-Fetch-Site")!
    static let xForwardedProto = Self("X-Forwarded-Proto")!
    static let xForwardedHost = Self("X-Forwarded-Host")!
    static let xForwardedFor = Self("X-Forwarded-For")!
}

extension APIError {
    static let unauthenticated = APIError(status: .unauthorized, code: .unauthenticated, message: "Log in to read and write this diary.")
    static let crossOrigin = APIError(status: .forbidden, code: .csrf, message: "This request came from another site, and was refused.")
}
