import DiaryCore
import Hummingbird

/// `/api/v1/search`: entries by the words in them, best match first.
struct SearchController<Store: EntryStore> {
    typealias Context = DiaryRequestContext
    /// Each user's own diary; no handler reaches another's.
    let diaries: @Sendable (UserID) -> Store

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("search", use: search)
    }

    struct Results: Encodable {
        struct Result: Encodable {
            var entry: EntrySummary
            var snippet: String
        }
        var results: [Result]
    }

    @Sendable func search(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        guard let query = request.formValue("q"), !query.isBlank else {
            throw APIError.badRequest("Give the words to search for in q, as in /api/v1/search?q=serenity.")
        }
        let hits = try await store.search(query, limit: try request.pageSize())
        return try JSONResponse.make(Results(results: hits.map { .init(entry: $0.entry, snippet: $0.snippet) }), for: request)
    }
}
