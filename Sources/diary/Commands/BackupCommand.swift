import ArgumentParser
import DiaryStore

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the diary to a new SQLite file, safely, even while `diary serve` is writing to it.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The new file to write (it must not exist).")
    var path: String

    func run() async throws {
        let store = try await options.openStore()
        try await store.backup(to: path)
        print("Backed up the diary to \(path).")
    }
}
