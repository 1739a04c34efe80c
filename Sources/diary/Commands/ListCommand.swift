import ArgumentParser
import DiaryCore

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List entries, newest first: date, title and the start of the body.")

    @OptionGroup var options: StoreOptions

    // `.unconditional`: "-n -1" is a wrong number, to be told so, not a missing one.
    @Option(name: .short, parsing: .unconditional, help: "How many entries to show.")
    var n: Int = 20

    @Flag(help: "Print JSON for scripts.")
    var json = false

    @Flag(help: "Write straight to the terminal, without the pager ($PAGER, else less).")
    var noPager = false

    func validate() throws {
        guard n >= 1 else { throw ValidationError("-n must be at least 1.") }
    }

    func run() async throws {
        let store = try await options.openDiary()
        var entries: [EntrySummary] = []
        var cursor: EntryCursor?
        repeat {
            let page = try await store.list(after: cursor, limit: min(n - entries.count, 500))
            entries += page.entries
            cursor = page.nextCursor
        } while cursor != nil && entries.count < n
        if json {
            print(try EntryPrinter.json(entries))
        } else if entries.isEmpty {
            print("The diary is empty. Write the first entry with: diary new \"Title\" --body \"…\"")
        } else {
            let printer = EntryPrinter()
            Pager.show(entries.map { printer.line($0) + "\n" }.joined(), on: printer.terminal, paging: !noPager)
        }
    }
}
