import Foundation

/// The diary seen by its days: a month's calendar, a year at a glance, streaks. Days are the
/// writer's: each entry's in the zone it was written in (`Entry.timeZone`), as the list shows
/// it, else in the zone the client gives (`LocalDay`); each view reads only the moments, word
/// counts and zones of its span (`EntryRows.tallies`).
extension Diary {
    /// The days of `year`-`month` that have entries, with how many and their words.
    public func calendar(year: Int, month: Int, in zone: TimeZone) async throws -> CalendarMonth {
        guard let first = LocalDay(year: year, month: month, day: 1) else {
            throw EntryError.badFilter("A month is one of years 1 to 9999, such as 2024-05.")
        }
        let last = first.advanced(by: ISODate.daysIn(month: Int64(month), of: Int64(year)) - 1)
        let days = try await dayTallies(from: first, through: last, in: zone)
        return CalendarMonth(month: first.isoMonth, days: days.sorted { $0.key < $1.key }.map { $0.value.named($0.key) })
    }

    /// `year` at a glance: each day written (the heatmap), each month's entries and words, the
    /// year's longest streak of days written, and the diary's streak going on at `today`.
    public func yearAtAGlance(_ year: Int, in zone: TimeZone, today: Date = Date()) async throws -> YearAtAGlance {
        guard let first = LocalDay(year: year, month: 1, day: 1), let last = LocalDay(year: year, month: 12, day: 31) else {
            throw EntryError.badFilter("A year is one of 1 to 9999.")
        }
        let days = try await dayTallies(from: first, through: last, in: zone)
        var months = (1...12).map { MonthTally(month: LocalDay(year: year, month: $0, day: 1)!.isoMonth, entries: 0, words: 0) }
        for (day, tally) in days {
            months[day.month - 1].entries += tally.entries
            months[day.month - 1].words += tally.words
        }
        let written = days.keys.sorted()
        return YearAtAGlance(
            year: year,
            entries: months.reduce(0) { $0 + $1.entries },
            words: months.reduce(0) { $0 + $1.words },
            daysWritten: written.count,
            days: written.map { days[$0]!.named($0) },
            months: months,
            longestStreak: Streak.longest(in: written),
            currentStreak: try await currentStreak(today: today, in: zone))
    }

    /// The days written in a row up to `today`, or up to yesterday when today has nothing yet
    /// (a streak is not broken before the day is over); nil when neither day has an entry.
    public func currentStreak(today: Date = Date(), in zone: TimeZone) async throws -> Streak? {
        let today = LocalDay(moment: today.millisecondsSince1970, in: zone)
        // A window at a time, each reaching further back, while the streak runs to its start.
        var window: Int64 = 64
        var end = today
        var written = Set<LocalDay>()
        var day = today
        let earliest = LocalDay(year: 1, month: 1, day: 1)!
        while true {
            let start = max(end.advanced(by: -(window - 1)), earliest)
            written.formUnion(try await dayTallies(from: start, through: end, in: zone).keys)
            if day == today && !written.contains(today) { day = today.advanced(by: -1) }
            while day >= start && written.contains(day) { day = day.advanced(by: -1) }
            if day >= start || start == earliest { break }
            end = start.advanced(by: -1)
            window = min(window * 4, 366 * 20)
        }
        let last = written.contains(today) ? today : today.advanced(by: -1)
        guard day < last else { return nil }
        return Streak(days: Int(day.distance(to: last)), from: day.advanced(by: 1).iso, through: last.iso)
    }

    /// Entries and words of each day from `from` through `through` that has entries.
    private func dayTallies(from: LocalDay, through: LocalDay, in zone: TimeZone) async throws -> [LocalDay: DayTally] {
        let span = LocalDay.moments(from: from, through: through)
        var days: [LocalDay: DayTally] = [:]
        // (The span reaches two days past the days each way: any entry of any zone that falls
        // on them, on its own clock or the reader's, is in it.)
        let tallies = try await rows.tallies(from: max(span.from, EntryMoment.earliest), until: min(span.until, EntryMoment.latest + 1))
        var clocks: [String: ZoneClock] = [:]  // by zone name; "" for `zone`
        for tally in tallies.sorted(by: { $0.moment < $1.moment }) {
            let name = tally.zone ?? ""
            var clock = clocks[name] ?? ZoneClock(tally.zone.flatMap(TimeZone.init(identifier:)) ?? zone)
            let local = tally.moment + clock.offset(at: tally.moment)
            clocks[name] = clock
            let day = LocalDay(number: local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000)
            guard day >= from && day <= through else { continue }
            days[day, default: DayTally(date: "", entries: 0, words: 0)].add(tally)
        }
        return days
    }
}

/// A zone's offset from UTC at moments read oldest first, found again only when it may have
/// changed: a clock's offset changes a few times a year, and finding it is most of a tally's work.
struct ZoneClock {
    let zone: TimeZone
    private var offset: Int64 = 0
    private var holdsUntil = Int64.min

    init(_ zone: TimeZone) {
        self.zone = zone
    }

    /// The offset at `moment`, in milliseconds (moments asked oldest first). An offset found holds for the next six hours
    /// when it is the same at their end (no zone changes twice in six hours), else for the next
    /// quarter of an hour (offsets, and so changes, fall on those).
    mutating func offset(at moment: Int64) -> Int64 {
        if moment >= holdsUntil {
            offset = Diary.offset(of: zone, at: moment)
            let later = moment + 6 * 3_600_000
            if Diary.offset(of: zone, at: later) == offset {
                holdsUntil = later
            } else {
                // A change within six hours: to the end of this quarter of an hour only.
                let quarter: Int64 = 900_000
                let start = moment >= 0 ? moment / quarter : (moment - quarter + 1) / quarter
                holdsUntil = (start + 1) * quarter
            }
        }
        return offset
    }
}

extension Diary {
    /// `zone`'s offset from UTC at `milliseconds`, in milliseconds.
    static func offset(of zone: TimeZone, at milliseconds: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(millisecondsSince1970: milliseconds))) * 1000
    }
}

/// An entry as the calendar and the statistics count it: its moment and its words.
public struct EntryTally: Sendable, Hashable {
    /// When it was written, in Unix milliseconds.
    public var moment: Int64
    public var words: Int
    /// Its writer's zone (`Entry.timeZone`), which puts it on its day.
    public var zone: String?

    public init(moment: Int64, words: Int, zone: String? = nil) {
        self.moment = moment
        self.words = words
        self.zone = zone
    }
}

/// One day written: how many entries, how many words.
public struct DayTally: Sendable, Hashable, Encodable {
    /// "2024-05-03".
    public var date: String
    public var entries: Int
    public var words: Int

    public init(date: String, entries: Int, words: Int) {
        self.date = date
        self.entries = entries
        self.words = words
    }

    mutating func add(_ tally: EntryTally) {
        entries += 1
        words += tally.words
    }

    func named(_ day: LocalDay) -> DayTally {
        var named = self
        named.date = day.iso
        return named
    }
}

/// One month of a year: its entries and their words.
public struct MonthTally: Sendable, Hashable, Encodable {
    /// "2024-05".
    public var month: String
    public var entries: Int
    public var words: Int

    public init(month: String, entries: Int, words: Int) {
        self.month = month
        self.entries = entries
        self.words = words
    }
}

/// A month at a glance: the days that have entries.
public struct CalendarMonth: Sendable, Hashable, Encodable {
    /// "2024-05".
    public var month: String
    public var days: [DayTally]
}

/// Days written one after another.
public struct Streak: Sendable, Hashable, Encodable {
    public var days: Int
    /// The first day, "2024-05-01", and the last.
    public var from: String
    public var through: String

    public init(days: Int, from: String, through: String) {
        self.days = days
        self.from = from
        self.through = through
    }

    /// The longest run of consecutive days among `days` (sorted, each once); the earliest of
    /// equal runs; nil when there are no days.
    static func longest(in days: [LocalDay]) -> Streak? {
        guard var start = days.first else { return nil }
        var best = (start: start, end: start)
        var previous = start
        for day in days.dropFirst() {
            if day.number != previous.number + 1 { start = day }
            if start.distance(to: day) > best.start.distance(to: best.end) { best = (start, day) }
            previous = day
        }
        return Streak(days: Int(best.start.distance(to: best.end)) + 1, from: best.start.iso, through: best.end.iso)
    }
}

/// A year at a glance.
public struct YearAtAGlance: Sendable, Hashable, Encodable {
    public var year: Int
    public var entries: Int
    public var words: Int
    public var daysWritten: Int
    /// Each day that has entries, in order: the heatmap.
    public var days: [DayTally]
    /// All twelve months, written or not.
    public var months: [MonthTally]
    /// The longest run of days written within the year.
    public var longestStreak: Streak?
    /// The run of days written that goes on today (or ended yesterday), whatever year it began in.
    public var currentStreak: Streak?
}
