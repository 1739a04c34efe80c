import ArgumentParser
import DiaryBackends

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the whole database (every account's diary) to a new file, safely, even while `diary serve` is writing to it.",
        discussion: "From PostgreSQL too: the new file is a diary file of one consistent moment, which any `diary` opens.")

    @OptionGroup var options: DatabaseOptions

    @Argument(help: "The new file to write (it must not exist).")
    var path: String

    func run() async throws {
        try await Backends.backup(try await options.openStorage(), to: path)
        Output.print("Backed up the diary to \(path).")
    }
}
