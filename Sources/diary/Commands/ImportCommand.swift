import ArgumentParser
import DiaryCore
import Foundation

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the entries of a file: Diary's JSON or ZIP export, Day One's JSON or ZIP export, jrnl's journal or its JSON export, or the original app's sample.",
        discussion: """
            The format is read from the file's content, not its name; --format names it instead. \
            All or nothing: when any record is wrong, nothing is imported, and the error names the record. \
            Importing the same file again adds nothing: entries keep the file's own ids (Day One's uuid), \
            or ids made from their moment and words (jrnl, the sample). A ZIP brings its photos. \
            The report counts what Diary has no place for ("not kept"). \
            jrnl's times carry no zone: they are read in this computer's (TZ).
            """)

    @OptionGroup var options: StoreOptions

    @Option(help: "The file's format, when not the one its content shows: diary, sample, dayone, jrnl-json (jrnl --export json) or jrnl (jrnl's journal file).")
    var format: ImportFormat?

    @Argument(help: "The file to import.")
    var file: String

    func run() async throws {
        guard let head = FileHandle(forReadingAtPath: file).flatMap({ try? $0.read(upToCount: 4) }) else {
            throw FileError.unreadable(file)
        }
        let store = try await options.openDiary()
        var read: ImportedFile
        var photosAdded = 0
        if ZipImport.isZip(head) {
            (read, photosAdded) = try await ZipImport(store: store).read(file, as: format)
        } else {
            guard let data = FileManager.default.contents(atPath: file) else { throw FileError.unreadable(file) }
            read = try ImportFile.read(data, as: format)
            // A JSON file alone has none of the photos it places: they are in Day One's ZIP.
            read.notKept.add("photo (not in a JSON file: import Day One's ZIP to bring them)", read.photos.map(\.count).reduce(0, +))
            read.dropBlankEntries()
        }
        let summary = try await store.importEntries(read.entries)
        print(Self.report(summary, photosAdded: photosAdded, notKept: read.notKept))
    }

    /// What the import did, in a line or two: entries added, those already there, photos
    /// kept, and what the file held that Diary has no place for.
    static func report(_ summary: ImportSummary, photosAdded: Int, notKept: NotKept) -> String {
        var message = "Imported \(summary.imported) \(summary.imported == 1 ? "entry" : "entries")"
            + (photosAdded == 0 ? "." : " and \(photosAdded) photo\(photosAdded == 1 ? "" : "s").")
        if summary.skipped > 0 { message += " Skipped \(summary.skipped) already in the diary." }
        if summary.imported == 0 && summary.skipped > 0 { message += " Nothing new: this file was imported before." }
        if !notKept.isEmpty { message += "\nNot kept (Diary has no place for them): \(notKept)." }
        return message
    }
}

extension ImportFormat: ExpressibleByArgument {}

enum FileError: Error, CustomStringConvertible {
    case unreadable(String)
    case unwritable(String, String)

    var description: String {
        switch self {
        case .unreadable(let path): "Cannot read \(path): check that the file exists and that you may read it."
        case .unwritable(let path, let reason): "Cannot write \(path) (\(reason)); nothing was exported."
        }
    }
}
