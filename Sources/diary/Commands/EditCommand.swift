import ArgumentParser
import DiaryCore
import Foundation

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an entry.",
        discussion: """
            A title or --body replaces just that; --tag, --untag, --star, --no-star and --date change \
            only those. With none of them, the whole text is read from standard input, or edited in \
            $EDITOR starting from the entry as it is; its first line is the title.
            """)

    @OptionGroup var options: StoreOptions

    @Argument(help: "The entry: its id or the start of it, last, or -1, -2, … for the newest.")
    var id: String

    @Argument(help: "A new title.")
    var title: String?

    @Option(help: "A new body.")
    var body: String?

    @Option(name: .customLong("tag"), help: ArgumentHelp("Add a tag (repeat for more).", valueName: "tag"))
    var addedTags: [String] = []

    @Option(name: .customLong("untag"), help: ArgumentHelp("Take a tag off (in any case: Travel or travel).", valueName: "tag"))
    var removedTags: [String] = []

    @Flag(inversion: .prefixedNo, help: "Star the entry, or take its star off.")
    var star: Bool?

    @Option(help: ArgumentHelp("When it was written, in local time: \(WrittenDate.forms).", valueName: "date"))
    var date: String?

    func validate() throws {
        if let date, WrittenDate.parse(date) == nil {
            throw ValidationError("--date \"\(date)\" is not a date Diary reads (or falls outside years 1 to 9999): give one such as \(WrittenDate.forms).")
        }
    }

    func run() async throws {
        let store = try await options.openDiary()
        let found = try await EntryReference.resolve(id, in: store)
        guard let entry = try await store.entry(id: found) else { throw EntryError.notFound(id) }
        let othersOnly = !addedTags.isEmpty || !removedTags.isEmpty || star != nil || date != nil
        var text: EntryText?
        if title != nil || body != nil {
            text = try EntryText(title: title ?? entry.title, body: body ?? entry.body)
        } else if !othersOnly {
            text = try EntryInput.text(title: nil, body: nil, initial: entry.title + "\n\n" + entry.body)
        }
        var tags: [String]?
        if !addedTags.isEmpty || !removedTags.isEmpty {
            let removed = Set(removedTags.map(Tags.key))
            do {
                tags = try Tags.checked(entry.tags + addedTags).filter { !removed.contains(Tags.key($0)) }
            } catch {
                throw ValidationError("--tag: \(error)")
            }
        }
        // A new date is read on this computer's clock, so the entry takes its zone with it.
        let written = date.flatMap { WrittenDate.read($0) }
        let moment = written?.moment
        let edit = try EntryEdit(text: text, tags: tags, starred: star, moment: moment,
                                 timeZone: moment == nil ? nil : ZoneName.ofThisComputer())
        let changed = try await store.edit(id: found, edit, expecting: entry.version)
        if let local = written?.local, let notice = ClockNotice.sentence(for: local, in: .current) {
            Output.print(notice, to: .standardError)
        }
        let shortID = changed.id.diaryString.prefix(EntryPrinter.shortIDLength)
        if changed.version == entry.version {
            Output.print("Nothing changed: \(shortID) already reads so (version \(changed.version)).")
        } else {
            Output.print("Saved \(shortID) (version \(changed.version)).")
        }
        if changed.isInTrash { Output.print("It is in the trash: bring it back with diary restore \(shortID)") }
    }
}
