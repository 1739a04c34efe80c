import ArgumentParser
import DiaryCore

struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one entry whole.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The entry: its id or the start of it, last, or -1, -2, … for the newest.")
    var id: String

    @Flag(help: "Print JSON for scripts.")
    var json = false

    @Flag(help: "Write straight to the terminal, without the pager ($PAGER, else less).")
    var noPager = false

    func run() async throws {
        let store = try await options.openDiary()
        let found = try await EntryReference.resolve(id, in: store)
        guard let entry = try await store.entry(id: found) else { throw EntryError.notFound(id) }
        if json {
            Output.print(try EntryPrinter.json(entry))
        } else {
            let printer = EntryPrinter()
            Pager.show([printer.full(entry)], on: printer.terminal, paging: !noPager)
        }
    }
}
