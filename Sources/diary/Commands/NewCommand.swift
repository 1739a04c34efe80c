import ArgumentParser
import DiaryCore
import Foundation

struct NewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a new entry.",
        discussion: """
            With neither a title nor --body, the text is read from standard input when it is piped, \
            or written in $EDITOR when it is a terminal; its first line becomes the title.
            """)

    @OptionGroup var options: StoreOptions

    @Argument(help: "The entry's title (one line).")
    var title: String?

    @Option(help: "The entry's body.")
    var body: String?

    func run() async throws {
        let text = try EntryInput.text(title: title, body: body, initial: "")
        let store = try options.openStore()
        let entry = try await store.create(text, id: UUID())
        print("Saved \(entry.id.diaryString.prefix(EntryPrinter.shortIDLength)).")
    }
}

/// The words of a new or changed entry, from arguments or from a text.
enum EntryInput {
    /// From the arguments when there are any; else from standard input or the editor, where the
    /// first line is the title (the title rule moves everything after it into the body).
    static func text(title: String?, body: String?, initial: String) throws -> EntryText {
        if title != nil || body != nil {
            return try EntryText(title: title ?? "", body: body ?? "")
        }
        let written = try TextInput.read(initial: initial)
        if written.isBlank { throw InputError.nothingWritten }
        return try EntryText(title: written, body: "")
    }
}
