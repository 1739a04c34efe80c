import DiaryCore
import Foundation
import Hummingbird

/// `/api/v1/tags`, `/api/v1/on-this-day`, `/api/v1/calendar` and `/api/v1/year`: the diary
/// seen by its tags and by its days.
struct OrganizeController {
    typealias Context = DiaryRequestContext
    /// Each user's own diary; no handler reaches another's.
    let diaries: @Sendable (UserID) -> Diary

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("tags", use: tags)
        group.post("tags/rename", use: renameTag)
        group.get("on-this-day", use: onThisDay)
        group.get("calendar", use: calendar)
        group.get("year", use: year)
    }

    struct Rename: Decodable {
        var from: String
        var to: String
    }

    struct Renamed: Encodable {
        var tag: String
        var entries: Int
    }

    /// Renames a tag on every entry that has it, or merges it into another (`to` already there).
    @Sendable func renameTag(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        var request = request
        let input = try await request.decodeJSON(Rename.self)
        let changed = try await store.renameTag(input.from, to: input.to)
        return try JSONResponse.make(Renamed(tag: DiaryCore.Tags.tidied(input.to), entries: changed), for: request)
    }

    /// The days of `month` (YYYY-MM, else this month there) in `timeZone` that have entries.
    @Sendable func calendar(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        let zone = try Self.timeZone(request)
        var today = LocalDay(moment: Date().millisecondsSince1970, in: zone)
        if let text = request.formValue("month") {
            guard let first = LocalDay(text + "-01"), text.count == 7 else {
                throw APIError.badRequest("month must be a month such as 2024-05 (years 1 to 9999).")
            }
            today = first
        }
        return try JSONResponse.make(try await store.calendar(year: today.year, month: today.month, in: zone), for: request)
    }

    /// `year` (else this year there) at a glance, in `timeZone`: days written, months, streaks.
    @Sendable func year(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        let zone = try Self.timeZone(request)
        var year = LocalDay(moment: Date().millisecondsSince1970, in: zone).year
        if let text = request.formValue("year") {
            guard text.count == 4, text.allSatisfy(\.isASCII), let given = Int(text), (1...9999).contains(given) else {
                throw APIError.badRequest("year must be a year such as 2024 (1 to 9999).")
            }
            year = given
        }
        return try JSONResponse.make(try await store.yearAtAGlance(year, in: zone), for: request)
    }

    /// `timeZone` (an IANA name such as Asia/Seoul), else UTC: the writer's days, which only the
    /// client knows.
    static func timeZone(_ request: Request) throws -> TimeZone {
        let name = request.formValue("timeZone") ?? "UTC"
        guard let zone = ZoneName.zone(name) else {
            throw APIError.badRequest("timeZone must be a time zone's name, such as Asia/Seoul or Europe/London.")
        }
        return zone
    }

    struct Tags: Encodable {
        var tags: [TagCount]
    }

    @Sendable func tags(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        return try JSONResponse.make(Tags(tags: try await store.tags()), for: request)
    }

    struct OnThisDay: Encodable {
        struct Year: Encodable {
            var yearsAgo: Int
            var entries: [EntrySummary]
        }
        var date: String
        var years: [Year]
        /// Earlier years have entries too, beyond the `years` asked for.
        var earlier: Bool
    }

    /// `date` (YYYY-MM-DD, else today there) in `timeZone` (an IANA name such as Asia/Seoul,
    /// else UTC): the writer's day, which only the client knows. `perYear` (1 to 20, else 20):
    /// the newest entries of each year, so the list's top can ask for one a year; `years` (1 to
    /// 120, else all): the nearest years only, so it can show a few and the rest when asked.
    @Sendable func onThisDay(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        let zone = try Self.timeZone(request)
        let day = try Self.day(request, key: "date", in: zone) ?? Date()
        var perYear = 20
        if let text = request.formValue("perYear") {
            guard let given = Int(text), (1...20).contains(given) else {
                throw APIError.badRequest("perYear must be a number from 1 to 20.")
            }
            perYear = given
        }
        let most = try Self.years(request, key: "years")
        return try JSONResponse.make(try await Self.onThisDay(day, in: zone, perYear: perYear, years: most, of: store), for: request)
    }

    /// The day the query's `key` names (YYYY-MM-DD) in `zone`, or nil when it is absent.
    static func day(_ request: Request, key: String, in zone: TimeZone) throws -> Date? {
        guard let text = request.formValue(key) else { return nil }
        guard let given = day(text, in: zone) else {
            throw APIError.badRequest("\(key) must be a day such as 2026-11-25 (years 1 to 9999).")
        }
        return given
    }

    /// The query's `key`: at most this many years (1 to 120), all when absent.
    static func years(_ request: Request, key: String) throws -> Int {
        guard let text = request.formValue(key) else { return .max }
        guard let given = Int(text), (1...Diary.yearsBack).contains(given) else {
            throw APIError.badRequest("\(key) must be a number from 1 to \(Diary.yearsBack).")
        }
        return given
    }

    /// On this day for `day` in `zone`: the newest `perYear` entries of each earlier year, the
    /// nearest `most` years (`.max`: all), and whether there are earlier ones. Also the list's
    /// first page, when asked (`EntriesController.list`).
    static func onThisDay(_ day: Date, in zone: TimeZone, perYear: Int, years most: Int, of store: Diary) async throws -> OnThisDay {
        // One year more than asked, to tell whether there are earlier ones.
        var years = try await store.onThisDay(day, in: zone, perYear: perYear, years: most == .max ? most : most + 1)
        let earlier = years.count > most
        if earlier { years.removeLast() }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: day)
        let shown = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        return OnThisDay(date: shown, years: years.map { .init(yearsAgo: $0.years, entries: $0.entries) }, earlier: earlier)
    }

    /// Noon of the day `text` names (YYYY-MM-DD) in `zone`; nil when it is no such day.
    static func day(_ text: String, in zone: TimeZone) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...9999).contains(year)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)),
              calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: year, month: month, day: day)
        else { return nil }
        return date
    }
}
