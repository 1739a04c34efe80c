import ArgumentParser
import DiaryCore
import Foundation

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the entries of a file: a Diary JSON export, or the original app's sample format.",
        discussion: "All or nothing: when any record is wrong, nothing is imported. Entries already in the diary (same id) are skipped.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The file to import.")
    var file: String

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw FileError.unreadable(file)
        }
        let entries = try ImportFile.entries(from: data)
        let store = try await options.openDiary()
        let summary = try await store.importEntries(entries)
        var message = "Imported \(summary.imported) \(summary.imported == 1 ? "entry" : "entries")."
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
