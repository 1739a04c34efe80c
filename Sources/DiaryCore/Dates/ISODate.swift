import Foundation

/// ISO 8601 dates with milliseconds, the form every file and the API use:
/// "2020-12-22T15:35:33.000Z".
///
/// Both directions are written by hand, by the proleptic Gregorian calendar (the one ISO 8601
/// uses for every year), so what is written reads back as the same millisecond, for every year
/// from 1 to 9999. Foundation's calendar switches to the Julian one before 1582, so its parser
/// and the writer below would disagree on old dates by days.
public enum ISODate {
    /// Built from whole milliseconds by arithmetic: Foundation's format style truncates the binary
    /// fraction (.123 would come out as .122) and costs tens of microseconds a date, which a page
    /// of the list (three dates a row) would feel.
    public static func string(from date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        EntryJSONWriter.appendDate(date.millisecondsSince1970, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads "2020-12-22T15:35:33.000Z", with or without the fraction or the seconds, in UTC or
    /// with an offset ("+09:00", "-0500"); `nil` when it is not such a date or not in years 1–9999.
    public static func date(from string: String) -> Date? {
        try? parse(string).get()
    }

    /// The moment `string` names, or why it names none (`.notADate`, `.outOfRange`).
    /// A fraction finer than a millisecond is cut to the millisecond.
    public static func parse(_ string: String) -> Result<Date, MomentError> {
        var reader = DigitReader(Array(string.utf8))
        guard let year = reader.number(digits: 4), reader.take("-"),
              let month = reader.number(digits: 2), reader.take("-"),
              let day = reader.number(digits: 2),
              reader.take("T") || reader.take("t") || reader.take(" "),
              let hour = reader.number(digits: 2), reader.take(":"),
              let minute = reader.number(digits: 2)
        else { return .failure(.notADate) }
        var second: Int64 = 0
        var milliseconds: Int64 = 0
        if reader.take(":") {
            guard let value = reader.number(digits: 2) else { return .failure(.notADate) }
            second = value
            if reader.take(".") || reader.take(",") {
                var digits = 0
                while let digit = reader.digit() {
                    if digits < 3 { milliseconds = milliseconds * 10 + digit }
                    digits += 1
                }
                guard digits > 0 else { return .failure(.notADate) }
                for _ in digits..<max(digits, 3) { milliseconds *= 10 }
            }
        }
        var offsetMinutes: Int64 = 0
        let utcMark = reader.take("Z") || reader.take("z")
        let sign: Int64? = utcMark ? nil : reader.take("+") ? 1 : reader.take("-") ? -1 : nil
        if utcMark {
        } else if let sign {
            guard let hours = reader.number(digits: 2), hours <= 23 else { return .failure(.notADate) }
            var minutes: Int64 = 0
            if reader.take(":") {
                guard let value = reader.number(digits: 2) else { return .failure(.notADate) }
                minutes = value
            } else if let value = reader.number(digits: 2) {
                minutes = value
            }
            guard minutes <= 59 else { return .failure(.notADate) }
            offsetMinutes = sign * (hours * 60 + minutes)
        } else {
            return .failure(.notADate)  // a time without a zone names no one moment
        }
        guard reader.isAtEnd, (1...12).contains(month), (1...daysIn(month: month, of: year)).contains(day),
              hour <= 23, minute <= 59, second <= 59
        else { return .failure(.notADate) }
        let days = daysSince1970(year: year, month: month, day: day)
        let local = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + milliseconds
        let utc = local - offsetMinutes * 60_000
        guard EntryMoment.contains(utc) else { return .failure(.outOfRange) }
        return .success(Date(millisecondsSince1970: utc))
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days-from-civil).
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Hinnant's civil-from-days).
    @inline(__always)
    static func civil(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// ASCII digits and marks, one byte at a time.
private struct DigitReader {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func take(_ mark: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: mark) else { return false }
        index += 1
        return true
    }

    mutating func digit() -> Int64? {
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
        index += 1
        return Int64(bytes[index - 1] - UInt8(ascii: "0"))
    }

    /// Exactly `digits` digits, or nil (and nothing read past the first non-digit).
    mutating func number(digits: Int) -> Int64? {
        var value: Int64 = 0
        for _ in 0..<digits {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
