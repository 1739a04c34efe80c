import ArgumentParser
import DiaryArchives
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
        // Standard output (no --output) goes through `Output`, which shows control characters at a terminal.
        let handle: FileHandle?
        if let temporary {
            _ = try? FileManager.default.removeItem(atPath: temporary)  // left by a crashed export
            do {
                handle = try OwnerOnlyFile.create(atPath: temporary)
            } catch {
                throw FileError.unwritable(output!, "the folder is missing or read-only")
            }
        } else {
            handle = nil
        }
        do {
            let dates = LongDate(environment: ProcessInfo.processInfo.environment)
            switch format {
            case .zip:
                try handle?.close()
                try await ZipExport(store: store, dates: dates).write(to: temporary!)
            case .dayone:
                try handle?.close()
                try await DayOneZipExport(store: store).write(to: temporary!)
            case .json, .markdown, .jrnl:
                try await DiaryExport(store: store, dates: dates).write(DiaryExport.Format(rawValue: format.rawValue)!) {
                    if let handle { try handle.write(contentsOf: $0) } else { try Output.write($0) }
                }
            }
            if let temporary, let output {
                if !format.isZip { try handle?.close() }
                _ = try? FileManager.default.removeItem(atPath: output)
                try FileManager.default.moveItem(atPath: temporary, toPath: output)
            }
        } catch {
            if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
            throw error
        }
    }
}
