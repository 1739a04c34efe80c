import ArgumentParser
import DiaryCore
import Foundation

struct TodayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "On this day: what you wrote on today's date in earlier years.",
        discussion: "Days are those of your time zone (TZ). --on looks at another day's date.")

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("Another day than today, in the forms \(WrittenDate.forms).", valueName: "date"))
    var on: String?

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func validate() throws {
        if let on, WrittenDate.parse(on) == nil {
            throw ValidationError("--on \"\(on)\" is not a day Diary reads: give one such as \(WrittenDate.forms).")
        }
    }

    struct Year: Encodable {
        var yearsAgo: Int
        var entries: [EntrySummary]
    }

    func run() async throws {
        let day = on.flatMap { WrittenDate.parse($0) } ?? Date()
        let years = try await options.openDiary().onThisDay(day, in: .current)
        if json {
            Output.print(try EntryPrinter.json(years.map { Year(yearsAgo: $0.years, entries: $0.entries) }))
            return
        }
        let printer = EntryPrinter()
        guard !years.isEmpty else {
            Output.print("Nothing written on \(printer.dates.monthAndDay(of: day)) in earlier years.")
            return
        }
        for (index, year) in years.enumerated() {
            if index > 0 { Output.print("") }
            Output.print(Self.yearsAgo(year.years, in: printer.dates.locale))
            for entry in year.entries { Output.print(printer.line(entry)) }
        }
    }

    /// "5 years ago" in the reader's language, as the dates are (`LC_ALL`, `LC_TIME`, `LANG`).
    static func yearsAgo(_ years: Int, in locale: Locale) -> String {
        if locale.language.languageCode?.identifier == "ko" { return "\(years)년 전" }
        return years == 1 ? "1 year ago" : "\(years) years ago"
    }
}
