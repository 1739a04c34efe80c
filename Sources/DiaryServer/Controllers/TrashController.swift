import DiaryCore
import Hummingbird

/// `/api/v1/trash`: entries moved out of the diary, until they are restored or deleted for good.
struct TrashController {
    typealias Context = DiaryRequestContext
    /// Each user's own diary; no handler reaches another's.
    let diaries: @Sendable (UserID) -> Diary

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("trash", use: list)
        group.delete("trash/:id", use: purge)
        group.delete("trash", use: empty)
    }

    struct Emptied: Encodable {
        var deleted: Int
    }

    /// Empties the trash at once (the app asks the writer first): `{"deleted": n}`.
    @Sendable func empty(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        return try JSONResponse.make(Emptied(deleted: try await store.emptyTrash()), for: request)
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        let page = try await store.trash(after: try request.cursor(), limit: try request.pageSize())
        return JSONResponse.page(page, for: request)
    }

    @Sendable func purge(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        try await store.purge(id: try context.entryID())
        return Response(status: .noContent)
    }
}
