import ArgumentParser
import DiaryCore

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Move an entry to the trash, or delete it for good with --purge.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The entry's id, or a unique prefix of it.")
    var id: String

    @Flag(help: "Delete the entry for good instead of moving it to the trash.")
    var purge = false

    func run() async throws {
        let store = try await options.openDiary()
        let found = try await store.resolve(id)
        let shortID = found.diaryString.prefix(EntryPrinter.shortIDLength)
        if purge {
            try await store.purge(id: found)
            print("Deleted \(shortID) for good.")
        } else {
            _ = try await store.moveToTrash(id: found)
            print("Moved \(shortID) to the trash. Bring it back with: diary restore \(shortID)")
        }
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Take an entry out of the trash.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The entry's id, or a unique prefix of it.")
    var id: String

    func run() async throws {
        let store = try await options.openDiary()
        let found = try await store.resolve(id)
        _ = try await store.restore(id: found)
        print("Restored \(found.diaryString.prefix(EntryPrinter.shortIDLength)).")
    }
}
