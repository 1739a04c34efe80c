import ArgumentParser
import DiaryCore
import Foundation

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the entries of a file: a Diary JSON or ZIP export, or the original app's sample format.",
        discussion: "All or nothing: when any record is wrong, nothing is imported. Entries already in the diary (same id) are skipped. A ZIP export brings its photos.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The file to import.")
    var file: String

    func run() async throws {
        guard let head = FileHandle(forReadingAtPath: file).flatMap({ try? $0.read(upToCount: 4) }) else {
            throw FileError.unreadable(file)
        }
        let store = try await options.openDiary()
        let entries: [Entry]
        var photosAdded = 0
        if ZipImport.isZip(head) {
            (entries, photosAdded) = try await ZipImport(store: store).read(file)
        } else {
            guard let data = FileManager.default.contents(atPath: file) else { throw FileError.unreadable(file) }
            entries = try ImportFile.entries(from: data)
        }
        let summary = try await store.importEntries(entries)
        var message = "Imported \(summary.imported) \(summary.imported == 1 ? "entry" : "entries")"
            + (photosAdded == 0 ? "." : " and \(photosAdded) photo\(photosAdded == 1 ? "" : "s").")
        if summary.skipped > 0 { message += " Skipped \(summary.skipped) already in the diary." }
        print(message)
    }
}

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
