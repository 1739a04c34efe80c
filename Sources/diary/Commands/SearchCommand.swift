import ArgumentParser
import DiaryCore
import Foundation

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find entries by the words in them, best match first.",
        discussion: """
            Words match inside Korean words ("일기" finds "일기를") and at the start of others ("seren" finds "serenity"). \
            Narrow the search as the list: --tag travel, --starred, --from 2020-01-01 --to 2020-12-31, --on 2024-05-01.
            """)

    @OptionGroup var options: StoreOptions

    @Argument(help: "The words to find; every one must be in an entry.")
    var query: [String]

    @Option(name: .short, parsing: .unconditional, help: "How many entries to show.")
    var n: Int = 20

    @OptionGroup var narrowing: FilterOptions

    @Flag(help: "Print JSON for scripts.")
    var json = false

    @Flag(help: "Write straight to the terminal, without the pager ($PAGER, else less).")
    var noPager = false

    func validate() throws {
        guard !query.joined().isBlank else { throw ValidationError("Give a word to search for.") }
        do { _ = try SearchQuery(query.joined(separator: " ")) } catch { throw ValidationError(error.description) }
        guard n >= 1 else { throw ValidationError("-n must be at least 1.") }
    }

    func run() async throws {
        let store = try await options.openDiary()
        let hits = try await store.search(query.joined(separator: " "), limit: max(n, 1), filter: try narrowing.filter())
        if json {
            Output.print(try EntryPrinter.json(hits.map { SearchResult(entry: $0.entry, snippet: $0.snippet) }))
        } else {
            let printer = EntryPrinter()
            Pager.show(hits.map { printer.line($0.entry, detail: $0.snippet) }, on: printer.terminal, paging: !noPager)
        }
        // As grep does: a note on standard error and status 1, so a script can tell.
        if hits.isEmpty {
            let among = try narrowing.filter().isEmpty ? "" : " among those the options let through"
            Output.print("No entry has \(query.joined(separator: " "))\(among).", to: .standardError)
            throw ExitCode.failure
        }
    }

    struct SearchResult: Encodable {
        var entry: EntrySummary
        var snippet: String
    }
}
