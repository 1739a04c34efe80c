import ArgumentParser
import DiaryArchives
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
            jrnl's times carry no zone: they are read in this computer's (TZ), and each entry keeps it. \
            Day One's entries keep their own zones.
            """)

    @OptionGroup var options: StoreOptions

    @Option(help: "The file's format, when not the one its content shows: diary, sample, dayone, jrnl-json (jrnl --export json) or jrnl (jrnl's journal file).")
    var format: ImportFormat?

    @Argument(help: "The file to import.")
    var file: String

    func run() async throws {
        let (store, photos) = try await options.openDiaryWithPhotos()
        let bar = ProgressBar.onStandardError()
        let report = try await DiaryImport(store: store, photos: photos)
            .run(path: file, name: file, format: format) { bar?.show($0) }
        bar?.clear()
        Output.print(Self.report(report))
    }

    /// What the import did, in a line or two: entries added, those already there, photos
    /// kept, what the file held that Diary has no place for, and the times the clocks skip or
    /// repeat (jrnl's).
    static func report(_ report: DiaryImport.Report) -> String {
        let (added, photosAdded) = (report.added, report.photosAdded)
        var message = "Imported \(added) \(added == 1 ? "entry" : "entries")"
            + (photosAdded == 0 ? "." : " and \(photosAdded) photo\(photosAdded == 1 ? "" : "s").")
        if report.skipped > 0 { message += " Skipped \(report.skipped) already in the diary." }
        if added == 0 && report.skipped > 0 { message += " Nothing new: this file was imported before." }
        if !report.notKept.isEmpty { message += "\nNot kept (Diary has no place for them): \(report.notKept)." }
        if !report.clockChanges.isEmpty { message += "\n" + ClockNotice.counted(report.clockChanges, in: .current) }
        return message
    }
}

extension ImportFormat: ExpressibleByArgument {}

enum FileError: Error, CustomStringConvertible {
    case unwritable(String, String)

    var description: String {
        switch self {
        case .unwritable(let path, let reason): "Cannot write \(path) (\(reason)); nothing was exported."
        }
    }
}
