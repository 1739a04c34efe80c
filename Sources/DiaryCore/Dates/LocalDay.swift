import Foundation

/// A day as a writer's clock names it, in one time zone: what a calendar marks, a streak counts
/// and on this day compares. Counted from 1970-01-01 by the proleptic Gregorian calendar (as
/// `ISODate`), so any day of years 1 to 9999 has one, by arithmetic alone.
public struct LocalDay: Sendable, Hashable, Comparable, Strideable {
    /// Days since 1970-01-01.
    public var number: Int64

    public init(number: Int64) {
        self.number = number
    }

    /// The day of `year`-`month`-`day`; nil when there is no such day in years 1 to 9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Int(ISODate.daysIn(month: Int64(month), of: Int64(year)))).contains(day)
        else { return nil }
        number = ISODate.daysSince1970(year: Int64(year), month: Int64(month), day: Int64(day))
    }

    /// The day that `milliseconds` (since 1970, UTC) falls on in `zone`.
    public init(moment milliseconds: Int64, in zone: TimeZone) {
        let seconds = Int64(zone.secondsFromGMT(for: Date(millisecondsSince1970: milliseconds)))
        let local = milliseconds + seconds * 1000
        number = local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000
    }

    /// The day "YYYY-MM-DD" names, or nil.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var year: Int { Int(ISODate.civil(daysSince1970: number).year) }
    public var month: Int { Int(ISODate.civil(daysSince1970: number).month) }
    public var day: Int { Int(ISODate.civil(daysSince1970: number).day) }

    /// 0 for Sunday to 6 for Saturday (1970-01-01 was a Thursday).
    public var weekday: Int { Int(((number % 7) + 7 + 4) % 7) }

    /// "2024-05-03".
    public var iso: String {
        let (year, month, day) = ISODate.civil(daysSince1970: number)
        return Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2)
    }

    /// "2024-05": the month the day is in.
    public var isoMonth: String { String(iso.prefix(7)) }

    /// A span of Unix milliseconds that holds all of the days `from` through `through`, in any
    /// time zone (no clock is more than a day off UTC): what to read before sorting moments
    /// into the writer's days, without working out where a clock change put midnight.
    public static func moments(from: LocalDay, through: LocalDay) -> (from: Int64, until: Int64) {
        ((from.number - 2) * 86_400_000, (through.number + 3) * 86_400_000)
    }

    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool { lhs.number < rhs.number }
    public func distance(to other: LocalDay) -> Int64 { other.number - number }
    public func advanced(by n: Int64) -> LocalDay { LocalDay(number: number + n) }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
