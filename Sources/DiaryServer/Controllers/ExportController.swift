import DiaryArchives
import DiaryCore
import Foundation
import Hummingbird
import NIOCore

/// `GET /api/v1/export`: the writer's whole diary (not the trash) as a download, in the very
/// formats `diary export` writes (`DiaryExport`, `ZipExport`, `DayOneZipExport`). The text
/// formats are written a thousand entries at a time as they are read, so a 20-year diary is
/// never whole in the server's memory. A ZIP is made first in a private temporary file (its
/// photos one at a time), then sent from it; the file has no name by then, so nothing is left
/// behind whatever happens.
struct ExportController {
    typealias Context = DiaryRequestContext
    let diaries: @Sendable (UserID) -> Diary
    /// A ZIP takes the server's disk and a core while it is made: one per writer, two at once.
    let zips = UploadsInFlight(perUser: 1, overall: 2, code: .exportRunning,
                               busy: "A ZIP of this diary is being made already; download it, then ask again.")

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("export", use: export)
    }

    enum Format: String, CaseIterable {
        case json, markdown, jrnl, zip, dayone

        var file: (type: String, extension: String) {
            switch self {
            case .json, .jrnl: ("application/json; charset=utf-8", "json")
            case .markdown: ("text/markdown; charset=utf-8", "md")
            case .zip, .dayone: ("application/zip", "zip")
            }
        }
    }

    @Sendable func export(_ request: Request, context: Context) async throws -> Response {
        let user = try context.requireUser().id
        let store = diaries(user)
        guard let format = Format(rawValue: request.formValue("format") ?? "json") else {
            throw APIError.badRequest("format must be one of \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let zone = try OrganizeController.timeZone(request)
        let dates = LongDate(locale: Self.locale(request), timeZone: zone)
        let day = LongDate(locale: Locale(identifier: "en_US_POSIX"), timeZone: zone).isoDay(of: Date())
        let name = "diary-\(day)\(format == .dayone ? "-dayone" : format == .jrnl ? "-jrnl" : "").\(format.file.extension)"
        var headers: HTTPFields = [
            .contentType: format.file.type,
            .contentDisposition: "attachment; filename=\"\(name)\"",
            .cacheControl: "no-store",
        ]
        if format == .zip || format == .dayone {
            let place = try zips.admit(user)
            defer { place.done() }
            let file = try await Self.zip(format, of: store, dates: dates)
            headers[.contentLength] = String(file.size)
            return Response(status: .ok, headers: headers, body: ResponseBody(contentLength: file.size) { writer in
                let handle = FileHandle(fileDescriptor: file.descriptor, closeOnDealloc: false)
                while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                    try await writer.write(ByteBuffer(bytes: chunk))
                }
                withExtendedLifetime(file) {}
                try await writer.finish(nil)
            })
        }
        // Asked before the answer starts, so a diary that cannot be read is an error, not an
        // empty download.
        _ = try await store.export(after: nil, limit: 1)
        let text = DiaryExport.Format(rawValue: format.rawValue)!
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await DiaryExport(store: store, dates: dates).write(text) { try await writer.write(ByteBuffer(bytes: $0)) }
            try await writer.finish(nil)
        })
    }

    /// The ZIP, made in a private folder and opened; its name is gone before it is sent.
    static func zip(_ format: Format, of store: Diary, dates: LongDate) async throws -> NamelessFile {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diary-export-\(UUID().uuidString)").path
        try OwnerOnlyFile.makeFolders(folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/diary.zip"
        do {
            if format == .dayone {
                try await DayOneZipExport(store: store).write(to: path)
            } else {
                try await ZipExport(store: store, dates: dates).write(to: path)
            }
        } catch let error as any StorageFailure {
            throw error
        } catch {
            throw APIError(status: .insufficientStorage, code: .diskFull,
                           message: "The server could not make the ZIP (its disk may be full); nothing was changed. Try again later, or download the JSON.")
        }
        guard let file = NamelessFile.opening(path) else { throw APIError.from(CocoaError(.fileReadUnknown)) }
        return file
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
