import DiaryCore
import Foundation
import Hummingbird
import NIOCore

/// `GET /api/v1/export`: the writer's whole diary (not the trash) as a download, in the very
/// formats `diary export` writes: Diary's JSON (which `diary import` reads back) or Markdown.
/// Written a thousand entries at a time as they are read, so a 20-year diary is never whole in
/// the server's memory.
struct ExportController {
    typealias Context = DiaryRequestContext
    let diaries: @Sendable (UserID) -> Diary

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("export", use: export)
    }

    enum Format: String {
        case json, markdown
    }

    static let batchSize = 1_000

    @Sendable func export(_ request: Request, context: Context) async throws -> Response {
        let store = diaries(try context.requireUser().id)
        guard let format = Format(rawValue: request.formValue("format") ?? "json") else {
            throw APIError.badRequest("format must be json or markdown.")
        }
        let zone = try OrganizeController.timeZone(request)
        let locale = Self.locale(request)
        let day = LongDate(locale: Locale(identifier: "en_US_POSIX"), timeZone: zone).isoDay(of: Date())
        let (type, name) = format == .json
            ? ("application/json; charset=utf-8", "diary-\(day).json") : ("text/markdown; charset=utf-8", "diary-\(day).md")
        let headers: HTTPFields = [
            .contentType: type,
            .contentDisposition: "attachment; filename=\"\(name)\"",
            .cacheControl: "no-store",
        ]
        // Asked before the answer starts, so a diary that cannot be read is an error, not an
        // empty download.
        let first = try await store.export(after: nil, limit: Self.batchSize)
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            let markdown = MarkdownExport(dates: LongDate(locale: locale, timeZone: zone))
            let json = EntryJSONWriter()
            var buffer: [UInt8] = Array((format == .markdown ? markdown.header : ExportFile.header).utf8)
            var batch = first, isFirst = true
            while true {
                let files: [PhotoID: String]
                let held = batch.entries.flatMap { $0.photos.map(\.id) }
                if format == .markdown && !held.isEmpty {
                    // As the CLI's Markdown links them: photos/ beside the file, by name and extension.
                    files = try await store.photos.photos(ids: held).mapValues { "\($0.id.hex).\($0.format.fileExtension)" }
                } else {
                    files = [:]
                }
                for entry in batch.entries {
                    switch format {
                    case .json:
                        if !isFirst { buffer.append(contentsOf: ExportFile.separator.utf8) }
                        json.append(entry, to: &buffer)
                    case .markdown:
                        buffer.append(contentsOf: markdown.section(for: entry, photoFiles: files).utf8)
                    }
                    isFirst = false
                }
                try await writer.write(ByteBuffer(bytes: buffer))
                buffer.removeAll(keepingCapacity: true)
                guard let cursor = batch.nextCursor else { break }
                batch = try await store.export(after: cursor, limit: Self.batchSize)
            }
            if format == .json { try await writer.write(ByteBuffer(string: ExportFile.footer)) }
            try await writer.finish(nil)
        })
    }

    /// The Markdown's language for its dates: `language` (the web app's choice), else the
    /// browser's first of Korean and English in `Accept-Language`, else English.
    static func locale(_ request: Request) -> Locale {
        let asked = request.formValue("language").map { [$0] }
            ?? (request.headers[.acceptLanguage] ?? "").split(separator: ",").map { String($0.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces) }
        let code = asked.map { $0.lowercased().prefix { $0 != "-" && $0 != "_" } }.first { $0 == "ko" || $0 == "en" }
        return Locale(identifier: code == "ko" ? "ko_KR" : "en_US")
    }
}

extension LongDate {
    /// "2026-11-26": the day in this zone, for a file's name.
    func isoDay(of date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
