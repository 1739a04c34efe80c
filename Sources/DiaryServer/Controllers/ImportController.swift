import DiaryArchives
import DiaryCore
import Foundation
import Hummingbird
import NIOCore

/// `POST /api/v1/import`: a file of entries added to the writer's diary, as `diary import` adds
/// it (`DiaryImport`: every format it reads, ZIPs with their photos, all or nothing, a second
/// import adding nothing). The body is the file itself, kept in a nameless temporary file as it
/// comes, never whole in memory.
///
/// A client that asks for `application/x-ndjson` hears how far the import has got, a line at a
/// time, and the report last (the web app's progress bar). A file refused as it is read (not a
/// format Diary reads, a bad record, a hostile ZIP) is refused with a 4xx either way; what goes
/// wrong after the first line (a photo in the ZIP that is not one) is the last line. Any other
/// client gets the report, or the error, as one JSON answer.
///
/// The import runs to its end (all or nothing) even if the client goes away meanwhile; one at a
/// time on the server (each is parsed in memory).
struct ImportController {
    typealias Context = DiaryRequestContext
    let diaries: @Sendable (UserID) -> Diary
    let photos: @Sendable (UserID) -> DiaryPhotos
    let running = UploadsInFlight.imports

    /// A 20-year diary with its photos, as a ZIP: a few gigabytes at most.
    static let maximumBytes = 4 << 30
    /// A file of entries (a JSON, a journal, a ZIP's journal) is parsed whole, at about four
    /// times its size for entries of words (at most `JSONCost.factor` times): a 20-year diary's
    /// JSON is about 200 MB. Larger ones are `diary import`'s.
    static let maximumTextBytes = 256 << 20
    /// Parsed whole, each record costs memory beyond its bytes (a few KB: a million tiny records
    /// in 55 MB took 3.5 GB): a file may hold at most this many (its objects, counted before it
    /// is parsed). A 20-year diary has about 100,000 entries.
    static let maximumRecords = 400_000
    static let progressType = "application/x-ndjson"

    func addRoutes(to group: RouterGroup<Context>) {
        group.post("import", use: importFile)
    }

    /// What the import tells the client, in the order it happens.
    enum Event: Sendable {
        case progress(DiaryImport.Progress)
        case done(DiaryImport.Report)
        case failed(APIError)
    }

    @Sendable func importFile(_ request: Request, context: Context) async throws -> Response {
        let user = try context.requireUser().id
        let format = try Self.format(request)
        // The hours of a jrnl journal are its writer's clock's: the browser says which zone
        // (read in UTC when it does not, and then kept as no zone: no one said).
        let zone = try OrganizeController.timeZone(request)
        let zoneName = request.formValue("timeZone")
        let place = try running.admit(user)
        var handedOver = false
        defer { if !handedOver { place.done() } }
        let file = try await UploadedFile.receiveFile(
            request, limit: Self.maximumBytes,
            tooLarge: "The file is larger than \(Self.maximumBytes >> 30) GB; nothing was imported. Import it on the server with diary import instead.")
        guard file.size > 0 else {
            throw APIError.badRequest("The body is empty: send the file to import (Diary's JSON or ZIP export, Day One's JSON or ZIP export, or jrnl's journal or JSON export).")
        }
        let importer = DiaryImport(store: diaries(user), photos: photos(user), maximumTextBytes: Self.maximumTextBytes,
                                   maximumRecords: Self.maximumRecords, zone: zone, zoneName: zoneName)
        let (events, told) = AsyncStream<Event>.makeStream()
        handedOver = true
        Task {
            let last: Event
            do {
                let report = try await importer.run(path: file.path, name: "The file", format: format) { told.yield(.progress($0)) }
                last = .done(report)
            } catch {
                last = .failed(Self.apiError(error, asked: format != nil))
            }
            // The place is given back before the answer ends: a client that imports again as
            // soon as it has its report is not refused as if the first were still running.
            place.done()
            withExtendedLifetime(file) {}  // the file is let go (and gone) once the import is done
            told.yield(last)
            told.finish()
        }

        var iterator = events.makeAsyncIterator()
        guard Self.wantsProgress(request) else {
            while let event = await iterator.next() {
                switch event {
                case .progress: continue
                case .done(let report): return try JSONResponse.make(ReportJSON(report))
                case .failed(let error): throw error
                }
            }
            throw APIError.from(CancellationError())
        }
        // The first line waits for the file to be read: a file refused as it is read is refused
        // with its own status, not as the last line of a 200.
        guard let first = await iterator.next() else { throw APIError.from(CancellationError()) }
        if case .failed(let error) = first { throw error }
        let headers: HTTPFields = [.contentType: Self.progressType, .cacheControl: "no-store"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // The same stream, read on from where the first line left it (one reader at a time).
            var iterator = events.makeAsyncIterator()
            var event: Event? = first
            while let current = event {
                try await writer.write(ByteBuffer(bytes: try Self.line(current)))
                event = await iterator.next()
            }
            try await writer.finish(nil)
        })
    }

    /// `format=`: the file's format, when not the one its content shows.
    static func format(_ request: Request) throws -> ImportFormat? {
        guard let name = request.formValue("format"), !name.isEmpty else { return nil }
        guard let format = ImportFormat(rawValue: name) else {
            throw APIError.badRequest("format must be one of \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")), or left out to let Diary tell the format from the content.")
        }
        return format
    }

    static func wantsProgress(_ request: Request) -> Bool {
        (request.headers[.accept] ?? "").contains(progressType)
    }

    /// One line of the progress: `{"stage": …}`.
    static func line(_ event: Event) throws -> [UInt8] {
        let value: ProgressLine = switch event {
        case .progress(.read(let entries)): ProgressLine(stage: "read", entries: entries)
        case .progress(.photos(let done, let total)): ProgressLine(stage: "photos", done: done, of: total)
        case .progress(.saving(let entries)): ProgressLine(stage: "saving", entries: entries)
        case .done(let report): ProgressLine(stage: "done", report: ReportJSON(report))
        case .failed(let error): ProgressLine(stage: "failed", error: error.code, message: error.message)
        }
        return Array(try DiaryJSON.encoder().encode(value)) + [0x0A]
    }

    struct ProgressLine: Encodable {
        var stage: String
        var entries: Int?
        var done: Int?
        var of: Int?
        var report: ReportJSON?
        var error: APIErrorCode?
        var message: String?
    }

    /// The report, as the CLI's: entries added and already there, photos kept, the fields
    /// the file held that Diary has no place for, with how many of each, and the times the
    /// clocks skip or repeat in the zone a jrnl file was read in.
    struct ReportJSON: Encodable {
        var added: Int
        var skipped: Int
        var photos: Int
        var notKept: [String: Int]
        var clockChanges: ClockChangesJSON

        struct ClockChangesJSON: Encodable {
            var skipped: Int
            var repeated: Int
        }

        init(_ report: DiaryImport.Report) {
            added = report.added
            skipped = report.skipped
            photos = report.photosAdded
            notKept = report.notKept.counts
            clockChanges = ClockChangesJSON(skipped: report.clockChanges.skipped, repeated: report.clockChanges.repeated)
        }
    }

    /// An import's error as the API answers it: what was wrong with the file, and that nothing
    /// was imported.
    static func apiError(_ error: any Error, asked: Bool) -> APIError {
        switch error {
        case ImportError.unknownFormat, ZipImportError.noDiary(_):
            return APIError(status: .unsupportedMediaType, code: .unknownFormat, message: String(describing: error))
        case ImportError.notThisFormat(let format) where asked:
            return APIError(status: .unprocessableContent, code: .badImport,
                            message: "The file is not what format=\(format.rawValue) reads; leave format out to let Diary tell the format from the content. Nothing was imported.")
        case ImportError.notThisFormat(let format):
            return APIError(status: .unprocessableContent, code: .badImport,
                            message: "The file looks like \(format.named) but cannot be read as one: check that it is the whole file, as its app wrote it (UTF-8 text). Nothing was imported.")
        case let error as ImportError:
            return APIError(status: .unprocessableContent, code: .badImport, message: error.description)
        case let error as ZipImportError:
            switch error {
            case .tooLarge, .photosUnpackTooMuch: return APIError(status: .contentTooLarge, code: .tooLarge, message: error.description)
            default: break
            }
            return APIError(status: .unprocessableContent, code: .badImport, message: error.description)
        case let error as DayOneZipError:
            return APIError(status: .unprocessableContent, code: .badImport, message: error.description)
        case let error as ImportFileError:
            if case .unreadable = error { return APIError(status: .unprocessableContent, code: .badImport, message: error.description) }
            return APIError(status: .contentTooLarge, code: .tooLarge, message: error.description)
        case let error as EntryError:
            // A record the file holds that no entry may be (blank, too long…): named by the import
            // where it can; nothing was imported.
            let answer = APIError.from(error)
            return APIError(status: answer.status, code: answer.code, message: answer.message + " Nothing was imported.")
        default:
            return APIError.from(error)
        }
    }
}
