import DiaryCore
import Foundation

/// The whole diary (not the trash), oldest first, as one text file: Diary's own JSON (which
/// `DiaryImport` reads back), Markdown, or jrnl's JSON. Written a thousand entries at a time as
/// they are read, so a 20-year diary is never whole in memory: `diary export` writes it to a
/// file, the server to a download (`GET /api/v1/export`), the ZIP exports into their ZIP.
public struct DiaryExport: Sendable {
    public enum Format: String, CaseIterable, Sendable {
        case json, markdown, jrnl
    }

    static let batchSize = 1_000

    let store: Diary
    /// The Markdown's dates: its language and zone.
    let dates: LongDate

    public init(store: Diary, dates: LongDate) {
        self.store = store
        self.dates = dates
    }

    /// Writes the export through `write`, a batch at a time; returns the photos the entries
    /// hold, in the order they first appear (the ZIP exports add them).
    @discardableResult
    public func write(_ format: Format, to write: (_ bytes: [UInt8]) async throws -> Void) async throws -> [PhotoID] {
        var photos: [PhotoID] = [], seen = Set<PhotoID>()
        var buffer: [UInt8] = []
        buffer.reserveCapacity(4 << 20)
        let json = EntryJSONWriter()
        let markdown = MarkdownExport(dates: dates)
        buffer.append(contentsOf: (format == .markdown ? markdown.header : format == .jrnl ? JrnlFile.header : ExportFile.header).utf8)
        var tags: [String: Int] = [:]  // jrnl's JSON counts them
        var batch = try await store.export(after: nil, limit: Self.batchSize)
        var first = true
        while true {
            // The next batch is read while this one is written: the two cores share the work.
            let cursor = batch.nextCursor
            async let following: EntryBatch? = cursor == nil ? nil : store.export(after: cursor, limit: Self.batchSize)
            let held = batch.entries.flatMap { $0.photos.map(\.id) }
            for id in held where seen.insert(id).inserted { photos.append(id) }
            // The Markdown links each photo by its file's name, extension and all.
            let files = format == .markdown && !held.isEmpty
                ? try await store.photos(ids: held).mapValues { ZipExport.fileName(of: $0) } : [:]
            for entry in batch.entries {
                switch format {
                case .json:
                    if !first { buffer.append(contentsOf: ExportFile.separator.utf8) }
                    json.append(entry, to: &buffer)
                case .jrnl:
                    if !first { buffer.append(contentsOf: JrnlFile.separator.utf8) }
                    buffer.append(contentsOf: JrnlFile.record(for: entry, zone: dates.timeZone))
                    for tag in entry.tags { tags["@" + tag, default: 0] += 1 }
                case .markdown:
                    buffer.append(contentsOf: markdown.section(for: entry, photoFiles: files).utf8)
                }
                first = false
            }
            try await write(buffer)
            buffer.removeAll(keepingCapacity: true)
            guard let next = try await following else { break }
            batch = next
        }
        switch format {
        case .jrnl: try await write(Array(JrnlFile.footer(tags: tags).utf8))
        case .json: try await write(Array(ExportFile.footer.utf8))
        case .markdown: break
        }
        return photos
    }
}
