import Hummingbird
import Logging

/// Answers every failed API request with `{error, message}` JSON, including ones the router
/// itself refuses (an unknown path), and logs server faults without the request's words.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The web app's own pages keep Hummingbird's plain answers.
        guard request.uri.path.hasPrefix("/api/") else { return try await next(request, context) }
        do {
            return try await next(request, context)
        } catch {
            let apiError = APIError.from(error)
            if apiError.status.code >= 500 {
                context.logger.error("Request failed", metadata: ["path": "\(request.uri.path)", "error": "\(String(reflecting: type(of: error)))"])
            }
            return try apiError.response(from: request, context: context)
        }
    }
}
