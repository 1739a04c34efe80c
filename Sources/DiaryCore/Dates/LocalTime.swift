import Foundation

/// A time as a writer's clock shows it, with no zone: a day and the hour, minute and second of
/// it, as a writer types it (`WrittenDate`) and jrnl writes it (`JrnlFile`).
///
/// In a zone it names one moment, except on a day its clocks change: a time they skip (02:30
/// when they go from 02:00 to 03:00) names none, and one they show twice (01:30 when they go
/// back from 02:00 to 01:00) names two. Diary reads both by one rule, RFC 5545's, which is also
/// java.time's, Temporal's "compatible" and ECMAScript's `Date` (the web app's picker): a skipped
/// time is read with the offset before the change, so it is dated as far later as the clocks
/// went forward (02:30 becomes 03:30), and a repeated time is the first of the two.
/// Foundation's `Calendar.date(from:)` is not asked: what it does there is its own to change
/// (and its Gregorian calendar is Julian before 1582).
public struct LocalTime: Sendable, Hashable {
    public var day: LocalDay
    /// Milliseconds since the day's midnight, less than a day.
    public var sinceMidnight: Int64

    /// `hour`:`minute`:`second` of `day`; nil when that is no time of a day.
    public init?(day: LocalDay, hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.day = day
        sinceMidnight = Int64((hour * 60 + minute) * 60 + second) * 1000
    }

    /// The time `moment` shows on `zone`'s clock (to the second).
    public init(moment: Date, in zone: TimeZone) {
        let milliseconds = moment.millisecondsSince1970
        day = LocalDay(moment: milliseconds, in: zone)
        let local = milliseconds + Int64(zone.secondsFromGMT(for: moment)) * 1000 - day.number * 86_400_000
        sinceMidnight = local - local % 1000
    }

    /// "02:30", or "02:30:15" when it has seconds: the time as a message quotes it.
    public var clock: String {
        let seconds = sinceMidnight / 1000
        let shown = [seconds / 3600, seconds / 60 % 60] + (seconds % 60 == 0 ? [] : [seconds % 60])
        return shown.map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    }

    /// The moment this time names in `zone`, by the rule above.
    public func moment(in zone: TimeZone) -> Date {
        reading(in: zone).moment
    }

    /// How `zone`'s clock shows this time, and the moment it is dated.
    public func reading(in zone: TimeZone) -> Reading {
        let wall = day.number * 86_400_000 + sinceMidnight
        func offset(at moment: Int64) -> Int64 {
            Int64(zone.secondsFromGMT(for: Date(millisecondsSince1970: moment))) * 1000
        }
        // The offsets a day either side: the moment, if any, lies between them (no clock is a
        // day off UTC), and each offset it could be read with is one of the two, as Temporal
        // finds them. An offset fits when the clock has it at the moment it gives.
        let before = offset(at: wall - 86_400_000), after = offset(at: wall + 86_400_000)
        let moments = Set([before, after]).map { wall - $0 }.filter { wall - offset(at: $0) == $0 }.sorted()
        switch moments.count {
        case 0: return .skipped(Date(millisecondsSince1970: wall - before), forwardSeconds: Int((after - before) / 1000))
        case 1: return .once(Date(millisecondsSince1970: moments[0]))
        default: return .repeated(Date(millisecondsSince1970: moments[0]), second: Date(millisecondsSince1970: moments[1]))
        }
    }

    /// How a zone's clock shows a time, and the moment Diary dates it.
    public enum Reading: Sendable, Equatable {
        /// Once: the one moment it names.
        case once(Date)
        /// Never: the clocks go forward past it, by `forwardSeconds`. Dated as far later, read
        /// with the offset before the change.
        case skipped(Date, forwardSeconds: Int)
        /// Twice, as the clocks go back: dated the first; `second` is the other.
        case repeated(Date, second: Date)

        /// The moment the time is dated.
        public var moment: Date {
            switch self {
            case .once(let moment), .skipped(let moment, _), .repeated(let moment, _): moment
            }
        }
    }
}
