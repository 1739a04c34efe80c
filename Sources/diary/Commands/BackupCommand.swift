import ArgumentParser

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the whole database (every account's diary) to a new file, safely, even while `diary serve` is writing to it.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The new file to write (it must not exist).")
    var path: String

    func run() async throws {
        try await options.openStorage().backup(to: path)
        print("Backed up the diary to \(path).")
    }
}
