import Foundation

/// The moments an entry may have: from the first millisecond of year 1 to the last of year 9999
/// (UTC), the years every format Diary reads and writes spells with four digits.
///
/// Every date that comes from outside (an import file, a cursor, a number of seconds) is checked
/// here before it becomes an `Entry`, so no store, list or export ever meets a date it cannot
/// write, and no arithmetic on one can overflow.
public enum EntryMoment {
    /// 0001-01-01T00:00:00.000Z in Unix milliseconds.
    public static let earliest: Int64 = -62_135_596_800_000
    /// 9999-12-31T23:59:59.999Z in Unix milliseconds.
    public static let latest: Int64 = 253_402_300_799_999

    public static let rangeDescription = "from 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (years 1 to 9999)"

    /// Whether `milliseconds` since 1970 is a moment an entry may have.
    public static func contains(_ milliseconds: Int64) -> Bool {
        (earliest...latest).contains(milliseconds)
    }

    /// The moment `seconds` after 1970, to the millisecond, or a reason it is not one: not a
    /// finite number, outside years 1 to 9999, or plainly milliseconds (or microseconds) where
    /// seconds were meant, which would otherwise be read as a date thousands of years away.
    public static func fromUnixSeconds(_ seconds: Double) -> Result<Date, MomentError> {
        guard seconds.isFinite else { return .failure(.notANumber) }
        let milliseconds = (seconds * 1000).rounded()
        if milliseconds >= Double(earliest) && milliseconds <= Double(latest) {
            return .success(Date(millisecondsSince1970: Int64(milliseconds)))
        }
        for (unit, divisor) in [("milliseconds", 1e3), ("microseconds", 1e6), ("nanoseconds", 1e9)] {
            let scaled = seconds / divisor
            // Plainly that unit: a moment after 2001 in it (so 1e12 or more in seconds, far past
            // year 9999), not a number just past the end of the range.
            if scaled >= 1e9 && scaled * 1000 <= Double(latest) { return .failure(.wrongUnit(unit)) }
        }
        return .failure(.outOfRange)
    }
}

/// Why a date from outside is not a moment an entry may have.
public enum MomentError: Error, Equatable, Sendable {
    case notANumber
    case outOfRange
    /// The number looks like this unit, not seconds.
    case wrongUnit(String)
    /// Not an ISO 8601 date and time.
    case notADate

    /// A sentence naming `field` and `value`, as a message's middle: "\"created_at\" is 1e+20…".
    public func describe(field: String, value: String) -> String {
        let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
        switch self {
        case .notANumber:
            return "\"\(field)\" must be a number of seconds since 1970, not \(shown)"
        case .outOfRange:
            return "\"\(field)\" is \(shown), outside the dates an entry may have, \(EntryMoment.rangeDescription)"
        case .wrongUnit(let unit):
            return "\"\(field)\" is \(shown), which looks like \(unit) since 1970, not seconds: divide it to seconds first"
        case .notADate:
            return "\"\(field)\" must be a date such as 2020-12-22T15:35:33.000Z, not \(shown)"
        }
    }
}
