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
        group.patch("entries/:id", use: patch)
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
        /// The writer's tags and star (none, and not starred, when absent).
        var tags: [String]?
        var starred: Bool?
        /// When it was written, if not now (ISO 8601: an entry written the next morning).
        var createdAt: String?
        /// Its photos (none when absent), each uploaded first: then the words may be blank.
        var photos: [PhotoInput]?
        /// The writer's time zone, an IANA name such as Asia/Seoul: where it shows in the list.
        var timeZone: String?

        struct Location: Decodable {
            var latitude: Double
            var longitude: Double
        }
    }

    /// A photo as an entry names it: one the diary holds already (`POST /photos`), with its
    /// caption. Its size is the stored photo's, whatever is sent.
    struct PhotoInput: Decodable {
        var id: PhotoID
        var caption: String?

        static func photos(_ inputs: [PhotoInput]?) -> [EntryPhoto]? {
            inputs?.map { EntryPhoto(id: $0.id, caption: $0.caption ?? "") }
        }
    }

    /// An update replaces both fields, so both must be there (as for a new entry): a missing
    /// body is a client bug, never a reason to erase what was written.
    /// Tags, the star and the moment are left as they are when absent (a client that knows
    /// nothing of them never erases them).
    struct ChangedEntry: Decodable {
        var title: String
        var body: String
        var tags: [String]?
        var starred: Bool?
        var createdAt: String?
        /// The photos, in order, when given: they replace the entry's.
        var photos: [PhotoInput]?
        /// The writer's time zone, when given (with a new `createdAt` read on their clock).
        var timeZone: String?
    }

    /// A `PATCH`: only what is given changes (a star from the list, tags, a new date); a title
    /// and a body go together, as in `PUT`.
    struct EntryPatch: Decodable {
        var title: String?
        var body: String?
        var tags: [String]?
        var starred: Bool?
        var createdAt: String?
        /// The photos, in order, when given: they replace the entry's.
        var photos: [PhotoInput]?
        var timeZone: String?
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let owner = try context.requireUser().id
        let store = diaries(owner)
        let cursor = try request.cursor()
        let limit = try request.pageSize()
        let filter = try request.entryFilter()
        let memories = try Self.onThisDayAsked(request)
        guard cursor == nil, filter.isEmpty else {
            if memories != nil { throw APIError.badRequest("onThisDay comes with the first page of the whole list only.") }
            return JSONResponse.page(try await store.list(after: cursor, limit: limit, filter: filter), for: request)
        }
        // The count first, then the page: a page kept is never older than its count.
        let key = FirstPageCache.Key(owner: owner, limit: limit, coding: JSONResponse.Coding(for: request), onThisDay: memories?.key)
        let changeCount = try await store.changeCount()
        if let kept = firstPages.page(for: key, at: changeCount) { return JSONResponse.make(kept) }
        var json: [UInt8] = []
        json.reserveCapacity(512 * (limit + 4))
        EntryJSONWriter().append(try await store.list(after: nil, limit: limit), to: &json)
        if let memories {
            // The page's object, with on this day beside its entries: {"entries":…,"nextCursor":…,"onThisDay":…}.
            let found = try await OrganizeController.onThisDay(memories.day, in: memories.zone, perYear: 1, years: memories.years, of: store)
            json.removeLast()
            json.append(contentsOf: #","onThisDay":"#.utf8)
            json.append(contentsOf: try DiaryJSON.encoder().encode(found))
            json.append(UInt8(ascii: "}"))
        }
        // Compressed once for many answers, so harder than an answer for one request.
        let page = JSONResponse.encode(json: ByteBuffer(bytes: json), as: key.coding, brotliQuality: FirstPageCache.brotliQuality)
        firstPages.keep(page, for: key, at: changeCount)
        return JSONResponse.make(page)
    }

    /// On this day asked with the list's first page (`onThisDay`, the writer's day, in `timeZone`;
    /// the nearest `onThisDayYears`, else all): the newest entry of each earlier year, as the
    /// list's top shows them, in the same answer as the rows they come before (a request, and
    /// their words compressed apart from the rows', less on a first visit).
    struct OnThisDayAsked {
        var day: Date
        var zone: TimeZone
        var years: Int
        /// What tells two of them apart in `FirstPageCache`.
        var key: String
    }

    static func onThisDayAsked(_ request: Request) throws -> OnThisDayAsked? {
        guard let text = request.formValue("onThisDay") else { return nil }  // the busiest request asks none
        let zone = try OrganizeController.timeZone(request)
        guard let day = OrganizeController.day(text, in: zone) else {
            throw APIError.badRequest("onThisDay must be a day such as 2026-11-25 (years 1 to 9999).")
        }
        let years = try OrganizeController.years(request, key: "onThisDayYears")
        return OnThisDayAsked(day: day, zone: zone, years: years, key: "\(text) \(zone.identifier) \(years)")
    }

    @Sendable func create(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        var request = request
        let input = try await request.decodeJSON(NewEntry.self)
        // Blank words are let through here: `Diary` refuses them unless there is a photo.
        let text = try EntryText(title: input.title, body: input.body, allowBlank: true)
        let moment = try Self.moment(input.createdAt)
        var place: Coordinates?
        if let location = input.location {
            guard let coordinates = Coordinates(latitude: location.latitude, longitude: location.longitude) else {
                throw APIError.badRequest("location must have a latitude from -90 to 90 and a longitude from -180 to 180.")
            }
            place = coordinates
        }
        // A retry (an id the diary holds) is `Diary.create`'s to answer: 200 with the entry.
        let created = try await store.create(text, id: input.id ?? UUID(), location: place, basedOn: input.basedOn, at: moment,
                                             tags: input.tags, starred: input.starred, photos: PhotoInput.photos(input.photos),
                                             timeZone: input.timeZone)
        guard created.made else { return JSONResponse.entry(created.entry) }
        if let place = created.weatherPlace, let weather { weather.record(for: created.entry, at: place, in: store) }
        return JSONResponse.entry(created.entry, status: .created, location: true)
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
        let precondition = try Self.precondition(request)
        var request = request
        let input = try await request.decodeJSON(ChangedEntry.self)
        let edit = try EntryEdit(text: try EntryText(title: input.title, body: input.body, allowBlank: true), tags: input.tags,
                                 starred: input.starred, moment: try Self.moment(input.createdAt), photos: PhotoInput.photos(input.photos),
                                 timeZone: input.timeZone)
        return JSONResponse.entry(try await store.edit(id: id, edit, expecting: precondition.expectedVersion))
    }

    @Sendable func patch(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        let id = try context.entryID()
        let precondition = try Self.precondition(request)
        var request = request
        let input = try await request.decodeJSON(EntryPatch.self)
        var text: EntryText?
        switch (input.title, input.body) {
        case (let title?, let body?): text = try EntryText(title: title, body: body, allowBlank: true)
        case (nil, nil): text = nil
        default: throw APIError.badRequest("Send the title and the body together, or neither: an entry's words change as a whole.")
        }
        let edit = try EntryEdit(text: text, tags: input.tags, starred: input.starred, moment: try Self.moment(input.createdAt),
                                 photos: PhotoInput.photos(input.photos), timeZone: input.timeZone)
        return JSONResponse.entry(try await store.edit(id: id, edit, expecting: precondition.expectedVersion))
    }

    /// The `If-Match` every change must send: the version it is based on, or `*`.
    private static func precondition(_ request: Request) throws -> IfMatch {
        guard let precondition = request.ifMatch else {
            throw APIError(status: .preconditionRequired, code: .preconditionRequired,
                           message: "Send If-Match with the version the change is based on (the entry's ETag), so no other change is overwritten.")
        }
        if case .unreadable = precondition {
            throw APIError.badRequest("If-Match must be the entry's ETag, a version such as \"3\", or * to replace whatever version is there.")
        }
        return precondition
    }

    /// `createdAt` as sent: an ISO 8601 moment in years 1 to 9999, or absent.
    private static func moment(_ text: String?) throws -> Date? {
        guard let text else { return nil }
        switch ISODate.parse(text) {
        case .success(let date): return date
        case .failure(let error):
            throw APIError.badRequest(error.describe(field: "createdAt", value: "\"\(text)\"") + ", such as 2024-05-01T21:30:00+09:00.")
        }
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
