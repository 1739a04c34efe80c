import ArgumentParser
import DiaryCore
import Foundation

struct CalendarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "A month at a glance: the days you wrote on are marked.",
        discussion: "Days are those of your time zone (TZ). See a day's entries with: diary list --on 2024-05-03")

    @OptionGroup var options: StoreOptions

    @Argument(help: ArgumentHelp("The month, such as 2024-05 (this month when left out).", valueName: "month"))
    var month: String?

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func validate() throws {
        if let month, Self.firstDay(of: month) == nil {
            throw ValidationError("\"\(month)\" is not a month Diary reads: give one such as 2024-05 (years 1 to 9999).")
        }
    }

    static func firstDay(of month: String) -> LocalDay? {
        month.count == 7 ? LocalDay(month + "-01") : nil
    }

    func run() async throws {
        let zone = TimeZone.current
        let first = month.flatMap(Self.firstDay) ?? {
            let today = LocalDay(moment: Date().millisecondsSince1970, in: zone)
            return LocalDay(year: today.year, month: today.month, day: 1)!
        }()
        let shown = try await options.openDiary().calendar(year: first.year, month: first.month, in: zone)
        if json {
            Output.print(try EntryPrinter.json(shown))
            return
        }
        Output.print(Self.grid(first: first, written: Dictionary(uniqueKeysWithValues: shown.days.map { ($0.date, $0) })))
        let entries = shown.days.reduce(0) { $0 + $1.entries }
        Output.print(shown.days.isEmpty ? "Nothing written this month."
                     : "\(Count.of(shown.days.count, "day")) written: \(Count.of(entries, "entry", "entries")).")
    }

    /// The month as `cal` draws it, Sunday first; a day written is followed by a •.
    static func grid(first: LocalDay, written: [String: DayTally]) -> String {
        let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                     "November", "December"]
        let title = "\(names[first.month - 1]) \(first.year)"
        let width = 7 * 4 - 1
        var lines = [String(repeating: " ", count: max(0, (width - title.count) / 2)) + title, "Su  Mo  Tu  We  Th  Fr  Sa"]
        var line = String(repeating: " ", count: 4 * first.weekday)
        var day = first
        while day.month == first.month {
            let number = String(day.day)
            let mark = written[day.iso] != nil ? "•" : " "
            line += (number.count == 1 ? " " : "") + number + mark
            if day.weekday == 6 {
                lines.append(line)
                line = ""
            } else {
                line += " "
            }
            day = day.advanced(by: 1)
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }.joined(separator: "\n")
    }
}

/// "1 day", "3 days", "1,234 words".
enum Count {
    static func of(_ count: Int, _ one: String, _ many: String? = nil) -> String {
        let number = count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        return "\(number) \(count == 1 ? one : many ?? one + "s")"
    }
}
