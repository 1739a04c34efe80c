import HTTPTypes
import Hummingbird

/// Headers that keep the browser on the diary's side: no script but the app's own, no
/// third-party origin, no framing, no sniffing, no referrer leaving the site. The service worker
/// and the web app manifest come from the diary's own origin too (`worker-src`, `manifest-src`,
/// said outright though `default-src` already covers them).
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var contentSecurityPolicy: String {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; font-src 'self'; "
            + "worker-src 'self'; manifest-src 'self'; "
            + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        // The content policy and the referrer policy govern documents: a script, stylesheet or
        // JSON answer without a referrer policy follows its page's, and on each of those the
        // headers would only add bytes to every response of a first visit.
        if response.headers[.contentType]?.hasPrefix("text/html") == true {
            response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
            response.headers[.referrerPolicy] = "same-origin"
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
}
