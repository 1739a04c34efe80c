import Hummingbird

/// A HEAD answer is the GET answer without its body: same status, same headers (its
/// `Content-Length` included). The router makes a HEAD route of every GET route; this covers
/// answers made before the route is reached (a refused host, a request that must log in first).
/// NIO refuses to write a body to a HEAD request, and would close the connection if asked.
struct HeadResponses<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .head else { return try await next(request, context) }
        return try await next(request, context).createHeadResponse()
    }
}
