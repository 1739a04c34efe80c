import DiaryCore
import Foundation
import Hummingbird

/// `/api/v1/entries`: the diary's entries, one at a time or a page at a time.
struct EntriesController {
    typealias Context = DiaryRequestContext
    /// Each user's own diary; no handler reaches another's.
    let diaries: @Sendable (UserID) -> Diary
    let weather: WeatherRecorder?
    /// Each diary's first page, answered again while the diary has not changed.
    let firstPages = FirstPageCache()

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("entries", use: list)
        group.post("entries", use: create)
        group.get("entries/:id", use: show)
        group.put("entries/:id", use: update)
        group.delete("entries/:id", use: moveToTrash)
        group.post("entries/:id/restore", use: restore)
    }

    /// What a client sends to write an entry. `id` is optional: a client that picks it can
    /// retry a create whose answer it never got, without making a second entry.
    struct NewEntry: Decodable {
        var id: UUID?
        var title: String
        var body: String
        /// Where the writer is, if they allow it: for the weather. Kept to two decimals.
        var location: Location?
        /// On a retry with newer text: the version that text builds on, should an earlier try
        /// have got through (see `Diary.create`). The web app sends it when the page is
        /// closed while its first save of a new entry is still on its way.
        var basedOn: Int?

        struct Location: Decodable {
            var latitude: Double
            var longitude: Double
        }
    }

    /// An update replaces both fields, so both must be there (as for a new entry): a missing
    /// body is a client bug, never a reason to erase what was written.
    struct ChangedEntry: Decodable {
        var title: String
        var body: String
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let owner = try context.requireUser().id
        let store = diaries(owner)
        let cursor = try request.cursor()
        let limit = try request.pageSize()
        guard cursor == nil else { return JSONResponse.page(try await store.list(after: cursor, limit: limit), for: request) }
        // The count first, then the page: a page kept is never older than its count.
        let key = FirstPageCache.Key(owner: owner, limit: limit, gzip: JSONResponse.acceptsGzip(request))
        let changeCount = try await store.changeCount()
        if let kept = firstPages.page(for: key, at: changeCount) { return JSONResponse.make(kept) }
        let page = JSONResponse.encodedPage(try await store.list(after: nil, limit: limit), for: request)
        firstPages.keep(page, for: key, at: changeCount)
        return JSONResponse.make(page)
    }

    @Sendable func create(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        var request = request
        let input = try await request.decodeJSON(NewEntry.self)
        let text = try EntryText(title: input.title, body: input.body)
        if let id = input.id, let existing = try await store.entry(id: id) {
            guard let version = input.basedOn else { return JSONResponse.entry(existing) }
            return JSONResponse.entry(try await store.create(text, id: id, location: nil, basedOn: version))
        }
        var place: Coordinates?
        if let location = input.location {
            guard let coordinates = Coordinates(latitude: location.latitude, longitude: location.longitude) else {
                throw APIError.badRequest("location must have a latitude from -90 to 90 and a longitude from -180 to 180.")
            }
            place = coordinates
        }
        let entry = try await store.create(text, id: input.id ?? UUID(), location: place, basedOn: input.basedOn)
        if let place, let weather { weather.record(for: entry, at: place, in: store) }
        return JSONResponse.entry(entry, status: .created, location: true)
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        let id = try context.entryID()
        guard let entry = try await store.entry(id: id) else { throw EntryError.notFound(id.diaryString) }
        return JSONResponse.entry(entry, for: request)
    }

    @Sendable func update(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        let id = try context.entryID()
        guard let precondition = request.ifMatch else {
            throw APIError(status: .preconditionRequired, code: "precondition_required",
                           message: "Send If-Match with the version the change is based on (the entry's ETag), so no other change is overwritten.")
        }
        if case .unreadable = precondition {
            throw APIError.badRequest("If-Match must be the entry's ETag, a version such as \"3\", or * to replace whatever version is there.")
        }
        var request = request
        let input = try await request.decodeJSON(ChangedEntry.self)
        let text = try EntryText(title: input.title, body: input.body)
        let entry = try await store.update(id: id, to: text, expecting: precondition.expectedVersion)
        return JSONResponse.entry(entry)
    }

    @Sendable func moveToTrash(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        return JSONResponse.entry(try await store.moveToTrash(id: try context.entryID()))
    }

    @Sendable func restore(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        return JSONResponse.entry(try await store.restore(id: try context.entryID()))
    }
}
