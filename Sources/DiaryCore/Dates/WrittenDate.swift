import Foundation

/// A moment as a writer types it on the command line, read in their time zone:
/// `2024-05-01`, `2024-05-01 21:30`, `2024/05/01 9:30pm`, `today`, `yesterday 21:30`, `21:30`,
/// `now`, or an ISO date with its offset (`2024-05-01T21:30:00+09:00`).
///
/// A day without a time is 09:00 of that day, as jrnl reads it; a time without a day is today's.
/// Days are counted by the proleptic Gregorian calendar, as `ISODate` counts them.
public enum WrittenDate {
    /// The hour a day given without a time gets (jrnl's default).
    public static let defaultHour: Int64 = 9

    /// The forms `parse` reads, for messages.
    public static let forms = "2024-05-01, 2024-05-01 21:30, today, yesterday 21:30, 21:30 or now"

    /// The moment `text` names, or `nil` when it is none of the forms above or falls outside
    /// the years an entry may have (1 to 9999).
    public static func parse(_ text: String, now: Date = Date(), timeZone: TimeZone = .current) -> Date? {
        read(text, now: now, timeZone: timeZone)?.moment
    }

    /// The moment `text` names (as `parse`), and the time on the writer's clock it was read
    /// from: nil for `now` and an ISO date with its offset, which name their moment whole. A
    /// time the clocks skip or repeat that day is dated by `LocalTime`'s rule.
    public static func read(_ text: String, now: Date = Date(), timeZone: TimeZone = .current) -> (moment: Date, local: LocalTime?)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let exact = ISODate.date(from: trimmed) { return (exact, nil) }
        var words = trimmed.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if words == ["now"] { return (Date(millisecondsSince1970: now.millisecondsSince1970), nil) }
        // "2024-05-01T21:30": the ISO separator between a day and a time, without an offset.
        if words.count == 1, let separator = words[0].firstIndex(of: "t"), words[0].first?.isNumber == true {
            words = [String(words[0][..<separator]), String(words[0][words[0].index(after: separator)...])]
        }
        // "9:30 pm": the half of the day as a word of its own.
        if let last = words.last, last == "am" || last == "pm", words.count >= 2 {
            words.removeLast()
            words[words.count - 1] += last
        }
        guard (1...2).contains(words.count) else { return nil }

        let today = localDay(of: now, in: timeZone)
        var day = today
        var time: (hour: Int64, minute: Int64, second: Int64)? = nil
        if let named = self.day(words[0], today: today) {
            day = named
            if words.count == 2 {
                guard let given = clock(words[1]) else { return nil }
                time = given
            }
        } else if words.count == 1, let given = clock(words[0]) {
            time = given
        } else {
            return nil
        }
        let (hour, minute, second) = time ?? (defaultHour, 0, 0)
        guard let local = LocalTime(day: LocalDay(number: day), hour: Int(hour), minute: Int(minute), second: Int(second)) else { return nil }
        let moment = local.moment(in: timeZone)
        guard EntryMoment.contains(moment.millisecondsSince1970) else { return nil }
        return (moment, local)
    }

    /// The writer's calendar day of the moment `text` names (as `parse` reads it): its first
    /// moment, and the first moment of the next day. What `list --on`, `--from` and `--to` mean.
    public static func day(_ text: String, now: Date = Date(), timeZone: TimeZone = .current) -> (start: Date, next: Date)? {
        guard let moment = parse(text, now: now, timeZone: timeZone) else { return nil }
        let day = localDay(of: moment, in: timeZone)
        // A midnight the clocks skip starts its day when they land; one they repeat, the first time.
        let start = LocalTime(day: LocalDay(number: day), hour: 0, minute: 0)!.moment(in: timeZone)
        let next = LocalTime(day: LocalDay(number: day + 1), hour: 0, minute: 0)!.moment(in: timeZone)
        return (start, next)
    }

    /// Days since 1970-01-01 of the writer's calendar day at `date`.
    private static func localDay(of date: Date, in timeZone: TimeZone) -> Int64 {
        let local = date.millisecondsSince1970 + Int64(timeZone.secondsFromGMT(for: date)) * 1000
        return Int64((Double(local) / 86_400_000).rounded(.down))
    }

    /// `today`, `yesterday`, `tomorrow`, `2024-05-01` or `2024/05/01`, as days since 1970.
    private static func day(_ word: String, today: Int64) -> Int64? {
        switch word {
        case "today": return today
        case "yesterday": return today - 1
        case "tomorrow": return today + 1
        default: break
        }
        let parts = word.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "/" })
        guard parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
              let year = Int64(parts[0]), let month = Int64(parts[1]), let dayOfMonth = Int64(parts[2]),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              year >= 1, (1...12).contains(month), (1...ISODate.daysIn(month: month, of: year)).contains(dayOfMonth)
        else { return nil }
        return ISODate.daysSince1970(year: year, month: month, day: dayOfMonth)
    }

    /// `21:30`, `21:30:15`, `9:30pm`, `9am`: hours, minutes and seconds of a day.
    private static func clock(_ word: String) -> (hour: Int64, minute: Int64, second: Int64)? {
        var text = Substring(word)
        var half: Int64? = nil
        if text.hasSuffix("am") || text.hasSuffix("pm") {
            half = text.hasSuffix("pm") ? 12 : 0
            text = text.dropLast(2)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.count > 1 || half != nil,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int64(parts[0])
        else { return nil }
        let minute = parts.count > 1 ? Int64(parts[1]) ?? 60 : 0
        let second = parts.count > 2 ? Int64(parts[2]) ?? 60 : 0
        guard minute <= 59, second <= 59 else { return nil }
        if let half {
            guard (1...12).contains(hour) else { return nil }
            return (hour % 12 + half, minute, second)
        }
        guard hour <= 23, parts[1].count == 2 else { return nil }
        return (hour, minute, second)
    }
}
