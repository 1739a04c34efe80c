import ArgumentParser
import DiaryCore
import Foundation

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write every entry (not the trash) to JSON, Markdown, a ZIP with the photos, Day One's ZIP or jrnl's JSON, oldest first.",
        discussion: "Day One's ZIP (--format dayone) holds Journal.json and every photo; Day One has no field for a photo's caption, so Diary writes it as the image's alt text. jrnl's JSON (--format jrnl) has no place for photos, places or weather, and keeps times to the minute, in this computer's zone (TZ).")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, markdown, zip, dayone, jrnl

        /// Whether the export is a ZIP: a file, never standard output.
        var isZip: Bool { self == .zip || self == .dayone }
    }

    @OptionGroup var options: StoreOptions

    @Option(help: "json (Diary's own format, which import reads back), markdown, zip (diary.json, diary.md and every photo in photos/; needs --output), dayone (Day One's ZIP: Journal.json and photos/; needs --output) or jrnl (jrnl's JSON export).")
    var format: Format = .json

    @Option(help: "The file to write; standard output when not given.")
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    func validate() throws {
        if format.isZip && output == nil {
            throw ValidationError("--format \(format.rawValue) writes a ZIP file: name it with --output, as in --output diary.zip.")
        }
        if let output, !force, FileManager.default.fileExists(atPath: output) {
            throw ValidationError("\(output) exists already, so nothing was written: name a new file, or add --force to replace it.")
        }
    }

    func run() async throws {
        let store = try await options.openDiary()
        // Written beside the target and moved into place at the end: a failed export never
        // leaves half a file where a good one was. Made 0600: the export is the whole diary.
        let temporary = output.map { $0 + ".partial-\(ProcessInfo.processInfo.processIdentifier)" }
        let handle: FileHandle
        if let temporary {
            _ = try? FileManager.default.removeItem(atPath: temporary)  // left by a crashed export
            do {
                handle = try OwnerOnlyFile.create(atPath: temporary)
            } catch {
                throw FileError.unwritable(output!, "the folder is missing or read-only")
            }
        } else {
            handle = FileHandle.standardOutput
        }
        do {
            if format == .zip {
                try handle.close()
                try await ZipExport(store: store).write(to: temporary!)
            } else if format == .dayone {
                try handle.close()
                try await DayOneZipExport(store: store).write(to: temporary!)
            } else {
                try await Self.write(store: store, as: format, to: handle)
            }
            if let temporary, let output {
                if !format.isZip { try handle.close() }
                _ = try? FileManager.default.removeItem(atPath: output)
                try FileManager.default.moveItem(atPath: temporary, toPath: output)
            }
        } catch {
            if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
            throw error
        }
    }

    /// Writes the JSON or the Markdown export of `store` to `handle`; the names of the photos the
    /// entries hold, in the order they first appear.
    @discardableResult
    static func write(store: Diary, as format: Format, to handle: FileHandle) async throws -> [PhotoID] {
        var photos: [PhotoID] = [], seen = Set<PhotoID>()
        var buffer: [UInt8] = []
        buffer.reserveCapacity(4 << 20)
        let writer = EntryJSONWriter()
        let markdown = MarkdownExport(dates: LongDate(environment: ProcessInfo.processInfo.environment))
        buffer.append(contentsOf: (format == .markdown ? markdown.header : format == .jrnl ? JrnlFile.header : ExportFile.header).utf8)
        var tags: [String: Int] = [:]  // jrnl's JSON counts them
        var batch = try await store.export(after: nil, limit: 1_000)
        var first = true
        while true {
            // The next batch is read while this one is written: the two cores share the work.
            let cursor = batch.nextCursor
            async let following: EntryBatch? = cursor == nil ? nil : store.export(after: cursor, limit: 1_000)
            let held = batch.entries.flatMap { $0.photos.map(\.id) }
            for id in held where seen.insert(id).inserted { photos.append(id) }
            // The Markdown links each photo by its file's name, extension and all.
            let files = format == .markdown && !held.isEmpty
                ? try await store.photos.photos(ids: held).mapValues { ZipExport.fileName(of: $0) } : [:]
            for entry in batch.entries {
                switch format {
                case .json, .zip, .dayone:
                    if !first { buffer.append(contentsOf: ExportFile.separator.utf8) }
                    writer.append(entry, to: &buffer)
                case .jrnl:
                    if !first { buffer.append(contentsOf: JrnlFile.separator.utf8) }
                    buffer.append(contentsOf: JrnlFile.record(for: entry))
                    for tag in entry.tags { tags["@" + tag, default: 0] += 1 }
                case .markdown:
                    buffer.append(contentsOf: markdown.section(for: entry, photoFiles: files).utf8)
                }
                first = false
            }
            try handle.write(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
            guard let next = try await following else { break }
            batch = next
        }
        if format == .jrnl {
            try handle.write(contentsOf: Array(JrnlFile.footer(tags: tags).utf8))
        } else if format != .markdown {
            try handle.write(contentsOf: Array(ExportFile.footer.utf8))
        }
        return photos
    }
}
