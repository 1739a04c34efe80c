import DiaryCore
import Hummingbird

/// `/api/v1/search`: entries by the words in them, best match first, narrowed as the list is
/// (`tag`, `starred`, `from`, `until`).
struct SearchController {
    typealias Context = DiaryRequestContext
    /// Each user's own diary; no handler reaches another's.
    let diaries: @Sendable (UserID) -> Diary
    /// How many searches run at once, and for how long (`diary serve --search-timeout`).
    let gate: SearchGate

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
        let limit = try request.pageSize()
        let filter = try request.entryFilter()
        let hits: [SearchHit]
        do {
            // Checked before waiting for a turn: a query too long is refused at once.
            _ = try SearchQuery(query)
            hits = try await gate.run { try await store.search(query, limit: limit, filter: filter) }
        } catch let error as SearchError {
            throw APIError(status: .badRequest, code: error.code, message: error.description)
        } catch let refusal as SearchGate.Refusal {
            throw Self.answer(refusal, limits: gate.limits)
        }
        return try JSONResponse.make(Results(results: hits.map { .init(entry: $0.entry, snippet: $0.snippet) }), for: request)
    }

    /// 503s that say what happened and when to try again.
    static func answer(_ refusal: SearchGate.Refusal, limits: SearchLimits) -> APIError {
        var error = switch refusal {
        case .timedOut:
            APIError(status: .serviceUnavailable, code: .searchTimeout,
                     message: "The search took longer than \(limits.timeout.inWords) and was stopped. Try fewer words, or longer ones.")
        case .busy:
            APIError(status: .serviceUnavailable, code: .searchBusy,
                     message: "The server is busy with other searches. Try again in a moment.")
        }
        error.headers[.retryAfter] = "1"
        return error
    }
}

extension SearchError {
    /// The API's name for it.
    var code: APIErrorCode {
        switch self {
        case .tooLong: .queryTooLong
        case .tooManyWords: .tooManyWords
        }
    }
}

extension Duration {
    /// "2 seconds", "0.5 seconds", "1 second".
    var inWords: String {
        let value = Double(components.seconds) + Double(components.attoseconds) / 1e18
        let text = value == value.rounded() ? String(Int(value)) : String(value)
        return value == 1 ? "1 second" : "\(text) seconds"
    }
}
