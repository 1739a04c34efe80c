import ArgumentParser
import DiaryCore

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an entry.",
        discussion: """
            A title or --body replaces just that. With neither, the whole text is read from standard \
            input, or edited in $EDITOR starting from the entry as it is; its first line is the title.
            """)

    @OptionGroup var options: StoreOptions

    @Argument(help: "The entry: its id or the start of it, last, or -1, -2, … for the newest.")
    var id: String

    @Argument(help: "A new title.")
    var title: String?

    @Option(help: "A new body.")
    var body: String?

    func run() async throws {
        let store = try await options.openDiary()
        let found = try await EntryReference.resolve(id, in: store)
        guard let entry = try await store.entry(id: found) else { throw EntryError.notFound(id) }
        let text: EntryText
        if title != nil || body != nil {
            text = try EntryText(title: title ?? entry.title, body: body ?? entry.body)
        } else {
            text = try EntryInput.text(title: nil, body: nil, initial: entry.title + "\n\n" + entry.body)
        }
        let changed = try await store.update(id: found, to: text, expecting: entry.version)
        let shortID = changed.id.diaryString.prefix(EntryPrinter.shortIDLength)
        if changed.version == entry.version {
            print("Nothing changed: \(shortID) already reads so (version \(changed.version)).")
        } else {
            print("Saved \(shortID) (version \(changed.version)).")
        }
        if changed.isInTrash { print("It is in the trash: bring it back with diary restore \(shortID)") }
    }
}
