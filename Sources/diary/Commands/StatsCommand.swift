import ArgumentParser
import DiaryCore
import Foundation

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "A year at a glance: the days written, entries and words by month, and your streaks.",
        discussion: "Days are those of your time zone (TZ). In the heatmap a column is a week, Sunday at the top: · none, ░ one entry, ▒ two, ▓ three, █ four or more.")

    @OptionGroup var options: StoreOptions

    @Argument(help: ArgumentHelp("The year, such as 2024 (this year when left out).", valueName: "year"))
    var year: Int?

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func validate() throws {
        if let year, !(1...9999).contains(year) { throw ValidationError("The year must be one of 1 to 9999, not \(year).") }
    }

    func run() async throws {
        let zone = TimeZone.current
        let year = year ?? LocalDay(moment: Date().millisecondsSince1970, in: zone).year
        let glance = try await options.openDiary().yearAtAGlance(year, in: zone)
        if json {
            Output.print(try EntryPrinter.json(glance))
            return
        }
        Output.print(Self.text(glance))
    }

    static func text(_ glance: YearAtAGlance) -> String {
        var lines = ["\(glance.year): \(Count.of(glance.entries, "entry", "entries")), \(Count.of(glance.words, "word")), "
                     + "\(Count.of(glance.daysWritten, "day")) written."]
        func streak(_ name: String, _ streak: Streak?) -> String {
            guard let streak else { return "\(name): none" }
            return streak.days == 1 ? "\(name): 1 day (\(streak.from))" : "\(name): \(Count.of(streak.days, "day")) (\(streak.from) to \(streak.through))"
        }
        lines.append(streak("Longest streak", glance.longestStreak))
        lines.append(streak("Current streak", glance.currentStreak))
        lines.append("")
        lines += heatmap(glance)
        lines.append("")
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let most = max(1, glance.months.map(\.entries).max() ?? 1)
        let entriesWidth = String(most).count
        for (index, month) in glance.months.enumerated() {
            let bar = String(repeating: "█", count: (month.entries * 20 + most - 1) / most)
            let count = String(month.entries)
            lines.append("\(names[index])  " + String(repeating: " ", count: entriesWidth - count.count) + count + "  "
                         + bar.padding(toLength: 20, withPad: " ", startingAt: 0) + "  " + Count.of(month.words, "word"))
        }
        return lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }.joined(separator: "\n")
    }

    /// Seven rows, Sunday to Saturday; a column a week, from the week of January 1.
    static func heatmap(_ glance: YearAtAGlance) -> [String] {
        let first = LocalDay(year: glance.year, month: 1, day: 1)!
        let last = LocalDay(year: glance.year, month: 12, day: 31)!
        let counts = Dictionary(uniqueKeysWithValues: glance.days.map { ($0.date, $0.entries) })
        let start = first.advanced(by: -Int64(first.weekday))
        let weeks = Int(start.distance(to: last) / 7) + 1
        let shades = ["·", "░", "▒", "▓", "█"]
        let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        return (0..<7).map { weekday in
            var row = dayNames[weekday] + " "
            for week in 0..<weeks {
                let day = start.advanced(by: Int64(week * 7 + weekday))
                guard day >= first && day <= last else { row += " "; continue }
                row += shades[min(counts[day.iso] ?? 0, shades.count - 1)]
            }
            return row
        }
    }
}
