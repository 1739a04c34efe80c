import ArgumentParser
import DiaryCore

struct TrashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash", abstract: "List the trash, most recently deleted first.")

    @OptionGroup var options: StoreOptions

    @Option(name: .short, parsing: .unconditional, help: "How many entries to show.")
    var n: Int = 50

    @Flag(help: "Print JSON for scripts.")
    var json = false

    @Flag(help: "Write straight to the terminal, without the pager ($PAGER, else less).")
    var noPager = false

    func validate() throws {
        guard n >= 1 else { throw ValidationError("-n must be at least 1.") }
    }

    func run() async throws {
        let store = try await options.openDiary()
        let page = try await store.trash(after: nil, limit: n)
        if json {
            print(try EntryPrinter.json(page.entries))
        } else if page.entries.isEmpty {
            print("The trash is empty.")
        } else {
            let printer = EntryPrinter()
            Pager.show(page.entries.map { printer.line($0) + "\n" }.joined(), on: printer.terminal, paging: !noPager)
        }
    }
}
