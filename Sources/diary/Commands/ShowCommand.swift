import ArgumentParser
import DiaryCore

struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one entry whole.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The entry's id, or a unique prefix of it.")
    var id: String

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() async throws {
        let store = try await options.openDiary()
        let found = try await store.resolve(id)
        guard let entry = try await store.entry(id: found) else { throw EntryError.notFound(id) }
        print(json ? try EntryPrinter.json(entry) : EntryPrinter().full(entry))
    }
}
