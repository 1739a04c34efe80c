import ArgumentParser
import DiaryCore
import Foundation

/// How `list` and `search` are narrowed, as jrnl's options narrow its entries: by tags, the
/// star and days of the writer's time zone (TZ).
struct FilterOptions: ParsableArguments {
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
}
