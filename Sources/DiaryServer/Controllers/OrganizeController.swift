import DiaryCore
import Foundation
import Hummingbird

/// `/api/v1/tags` and `/api/v1/on-this-day`: the diary seen by its tags and by its days.
struct OrganizeController {
    typealias Context = DiaryRequestContext
    /// Each user's own diary; no handler reaches another's.
    let diaries: @Sendable (UserID) -> Diary

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("tags", use: tags)
        group.get("on-this-day", use: onThisDay)
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
    }

    /// `date` (YYYY-MM-DD, else today there) in `timeZone` (an IANA name such as Asia/Seoul,
    /// else UTC): the writer's day, which only the client knows.
    @Sendable func onThisDay(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        let zoneName = request.formValue("timeZone") ?? "UTC"
        guard zoneName.count <= 64, let zone = TimeZone(identifier: zoneName) else {
            throw APIError.badRequest("timeZone must be a time zone's name, such as Asia/Seoul or Europe/London.")
        }
        var day = Date()
        if let text = request.formValue("date") {
            guard let given = Self.day(text, in: zone) else {
                throw APIError.badRequest("date must be a day such as 2026-11-25 (years 1 to 9999).")
            }
            day = given
        }
        let years = try await store.onThisDay(day, in: zone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: day)
        let shown = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        return try JSONResponse.make(OnThisDay(date: shown, years: years.map { .init(yearsAgo: $0.years, entries: $0.entries) }),
                                     for: request)
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
