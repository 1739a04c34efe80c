import ArgumentParser
import DiaryCore
import Foundation

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Move an entry to the trash, or delete it for good with --purge.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The entry: its id or the start of it, last, or -1, -2, … for the newest.")
    var id: String

    @Flag(help: "Delete the entry for good instead of moving it to the trash.")
    var purge = false

    @Flag(name: .shortAndLong, help: "With --purge: do not ask first (for scripts).")
    var yes = false

    func validate() throws {
        // rm alone moves the entry to the trash and asks nothing: a --yes there would answer no
        // question, and a script that meant to delete for good would only move the entry.
        if yes && !purge {
            throw ValidationError("--yes only answers the question --purge asks, so nothing was done: add --purge to delete the entry for good, or leave out --yes to move it to the trash.")
        }
    }

    func run() async throws {
        let store = try await options.openDiary()
        let found = try await EntryReference.resolve(id, in: store)
        guard let entry = try await store.entry(id: found) else { throw EntryError.notFound(id) }
        let shortID = found.diaryString.prefix(EntryPrinter.shortIDLength)
        if purge {
            // At a terminal a person may have typed the wrong id: what cannot be undone is asked first.
            if !yes && isatty(STDIN_FILENO) == 1 {
                let name = entry.title.isBlank ? "the untitled entry" : "“\(entry.title)”"
                guard Confirmation.ask("Delete \(name) (\(shortID)) for good? It cannot be undone. [y/N] ") else {
                    Output.print("Nothing was deleted.")
                    throw ExitCode.failure
                }
            }
            try await store.purge(id: found)
            Output.print("Deleted \(shortID) for good.")
        } else if entry.isInTrash {
            Output.print("\(shortID) is already in the trash; nothing changed. Delete it for good with: diary rm --purge \(shortID)")
        } else {
            _ = try await store.moveToTrash(id: found)
            Output.print("Moved \(shortID) to the trash. Bring it back with: diary restore \(shortID)")
        }
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Take an entry out of the trash.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The entry: its id or the start of it, or last, -1, -2, … for the most recently deleted.")
    var id: String

    func run() async throws {
        let store = try await options.openDiary()
        let found = try await EntryReference.resolve(id, in: store, trash: true)
        let shortID = found.diaryString.prefix(EntryPrinter.shortIDLength)
        guard let entry = try await store.entry(id: found) else { throw EntryError.notFound(id) }
        if !entry.isInTrash {
            Output.print("\(shortID) is not in the trash; nothing changed.")
            return
        }
        _ = try await store.restore(id: found)
        Output.print("Restored \(shortID).")
    }
}
