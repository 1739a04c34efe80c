import DiaryCore
import Hummingbird
import Logging

/// Answers every failed API request with `{error, message}` JSON, including ones the router
/// itself refuses (an unknown path), and logs server faults without the request's words.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// For a known address asked with a method it does not take: 405, not 404.
    let methods: RouteMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The web app's own pages keep Hummingbird's plain answers.
        guard request.uri.path.hasPrefix("/api/") else { return try await next(request, context) }
        do {
            return try await next(request, context)
        } catch {
            var apiError = APIError.from(error)
            if let unmatched = error as? HTTPError, unmatched.status == .notFound {
                let allowed = methods.allowed(for: request.uri.path)
                if !allowed.isEmpty {
                    apiError = APIError.from(HTTPError(.methodNotAllowed))
                    apiError.headers[.allow] = allowed.joined(separator: ", ")
                }
            }
            if apiError.status.code >= 500 {
                // A storage failure's description is written for the operator (what failed, where,
                // what to do; never a password or the request's words); other errors by type only.
                let what = (error as? any StorageFailure)?.description ?? String(reflecting: type(of: error))
                context.logger.error("Request failed", metadata: ["path": "\(request.uri.path)", "error": "\(what)"])
            }
            return try apiError.response(from: request, context: context)
        }
    }
}
