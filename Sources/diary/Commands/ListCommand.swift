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

    @Option(name: .customLong("tag"), help: ArgumentHelp("Only entries with this tag (repeat: with every one).", valueName: "tag"))
    var tags: [String] = []

    @Flag(help: "Only starred entries.")
    var starred = false

    @Option(help: ArgumentHelp("Only entries from this day on.", valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("Only entries up to this day, that day included.", valueName: "date"))
    var to: String?

    @Option(help: ArgumentHelp("Only entries of this day.", valueName: "date"))
    var on: String?

    func validate() throws {
        guard n >= 1 else { throw ValidationError("-n must be at least 1.") }
        _ = try filter()
    }

    /// The filter the options ask for, or a usage error naming the option that is wrong.
    func filter() throws -> EntryFilter {
        func day(_ text: String?, _ option: String) throws -> (start: Date, next: Date)? {
            guard let text else { return nil }
            guard let day = WrittenDate.day(text) else {
                throw ValidationError("\(option) \"\(text)\" is not a day Diary reads: give one such as \(WrittenDate.forms).")
            }
            return day
        }
        if on != nil, from != nil || to != nil { throw ValidationError("--on names one day: give it alone, or --from and --to.") }
        let onDay = try day(on, "--on")
        do {
            return try EntryFilter(tags: tags, starredOnly: starred, from: onDay?.start ?? day(from, "--from")?.start,
                                   until: onDay?.next ?? day(to, "--to")?.next)
        } catch let error as EntryError {
            throw ValidationError(tags.isEmpty ? error.description : "--tag: \(error)")
        }
    }

    func run() async throws {
        let store = try await options.openDiary()
        let filter = try filter()
        var entries: [EntrySummary] = []
        var cursor: EntryCursor?
        repeat {
            let page = try await store.list(after: cursor, limit: min(n - entries.count, 500), filter: filter)
            entries += page.entries
            cursor = page.nextCursor
        } while cursor != nil && entries.count < n
        if json {
            print(try EntryPrinter.json(entries))
        } else if entries.isEmpty, !filter.isEmpty {
            print("No entries match.")
        } else if entries.isEmpty {
            print("The diary is empty. Write the first entry with: diary new \"Title\" --body \"…\"")
        } else {
            let printer = EntryPrinter()
            Pager.show(entries.map { printer.line($0) + "\n" }.joined(), on: printer.terminal, paging: !noPager)
        }
    }
}
