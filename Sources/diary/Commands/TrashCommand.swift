import ArgumentParser
import DiaryCore
import Foundation

struct TrashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash", abstract: "List the trash, most recently deleted first; --empty deletes it all for good.",
        discussion: "diary serve deletes entries for good 30 days after they were moved to the trash (its --trash-days).")

    @OptionGroup var options: StoreOptions

    @Option(name: .short, parsing: .unconditional, help: "How many entries to show.")
    var n: Int = 50

    @Flag(help: "Print JSON for scripts.")
    var json = false

    @Flag(help: "Write straight to the terminal, without the pager ($PAGER, else less).")
    var noPager = false

    @Flag(help: "Delete every entry in the trash for good (asks first at a terminal).")
    var empty = false

    @Flag(name: .shortAndLong, help: "With --empty: do not ask first (for scripts).")
    var yes = false

    func validate() throws {
        guard n >= 1 else { throw ValidationError("-n must be at least 1.") }
        if yes && !empty {
            throw ValidationError("--yes only answers the question --empty asks, so nothing was done: add --empty to empty the trash, or leave out --yes to list it.")
        }
    }

    func run() async throws {
        let store = try await options.openDiary()
        if empty { return try await emptyTrash(store) }
        let page = try await store.trash(after: nil, limit: n)
        if json {
            Output.print(try EntryPrinter.json(page.entries))
        } else if page.entries.isEmpty {
            Output.print("The trash is empty.")
        } else {
            let printer = EntryPrinter()
            Pager.show(page.entries.map { printer.line($0) }, on: printer.terminal, paging: !noPager)
        }
    }

    func emptyTrash(_ store: Diary) async throws {
        let held = try await store.trash(after: nil, limit: 1).entries.count
        guard held > 0 else { return Output.print("The trash is already empty.") }
        // What cannot be undone is asked first, at a terminal.
        if !yes && isatty(STDIN_FILENO) == 1 {
            guard Confirmation.ask("Delete every entry in the trash for good? It cannot be undone. [y/N] ") else {
                Output.print("Nothing was deleted.")
                throw ExitCode.failure
            }
        }
        let deleted = try await store.emptyTrash()
        Output.print("Deleted \(deleted) \(deleted == 1 ? "entry" : "entries") for good: the trash is empty.")
    }
}
