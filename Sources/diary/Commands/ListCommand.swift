import ArgumentParser
import DiaryCore
import Foundation

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List entries, newest first: date, title and the start of the body.",
        discussion: """
            Narrow the list as jrnl does: --tag travel (repeat for entries with every one), \
            --starred, --from 2020-01-01 --to 2020-12-31 (both days included), --on 2024-05-01. \
            Dates are days of your time zone (TZ), in the forms \(WrittenDate.forms).
            """)

    @OptionGroup var options: StoreOptions

    // `.unconditional`: "-n -1" is a wrong number, to be told so, not a missing one.
    @Option(name: .short, parsing: .unconditional, help: "How many entries to show.")
    var n: Int = 20

    @Flag(help: "Print JSON for scripts.")
    var json = false

    @Flag(help: "Write straight to the terminal, without the pager ($PAGER, else less).")
    var noPager = false

    @OptionGroup var narrowing: FilterOptions

    func validate() throws {
        guard n >= 1 else { throw ValidationError("-n must be at least 1.") }
    }

    func run() async throws {
        let store = try await options.openDiary()
        let filter = try narrowing.filter()
        var entries: [EntrySummary] = []
        var cursor: EntryCursor?
        repeat {
            let page = try await store.list(after: cursor, limit: min(n - entries.count, 500), filter: filter)
            entries += page.entries
            cursor = page.nextCursor
        } while cursor != nil && entries.count < n
        if json {
            Output.print(try EntryPrinter.json(entries))
        } else if entries.isEmpty, !filter.isEmpty {
            Output.print("No entries match.")
        } else if entries.isEmpty {
            Output.print("The diary is empty. Write the first entry with: diary new \"Title\" --body \"…\"")
        } else {
            let printer = EntryPrinter()
            Pager.show(entries.map { printer.line($0) }, on: printer.terminal, paging: !noPager)
        }
    }
}
