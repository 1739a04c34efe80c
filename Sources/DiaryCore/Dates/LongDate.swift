import Foundation

/// A date in the long form of the reader's language: "2020년 12월 22일", "December 22, 2020".
public struct LongDate: Sendable {
    public let locale: Locale
    public let timeZone: TimeZone

    public init(locale: Locale, timeZone: TimeZone = .current) {
        self.locale = locale
        self.timeZone = timeZone
    }

    /// The same language on the clock of an entry's writer (`Entry.timeZone`), so an entry shows
    /// the hour and the day it was written; on this one's when it has no zone.
    public func onClock(of zone: String?) -> LongDate {
        guard let zone, zone != timeZone.identifier, let its = TimeZone(identifier: zone) else { return self }
        return LongDate(locale: locale, timeZone: its)
    }

    /// The reader's language as the POSIX environment gives it: `LC_ALL`, then `LC_TIME`, then
    /// `LANG` ("ko_KR.UTF-8" → ko_KR). "C", "POSIX" or nothing set reads as US English.
    public init(environment: [String: String], timeZone: TimeZone = .current) {
        let names = ["LC_ALL", "LC_TIME", "LANG"].compactMap { environment[$0] }.filter { !$0.isEmpty }
        var identifier = names.first ?? "en_US"
        identifier = String(identifier.prefix { $0 != "." && $0 != "@" })
        if identifier == "C" || identifier == "POSIX" { identifier = "en_US" }
        self.init(locale: Locale(identifier: identifier), timeZone: timeZone)
    }

    /// The time of day in the same language and zone: "9:30 PM", "오후 9:30", "21:30".
    public func time(of date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .omitted, time: .shortened, locale: locale, timeZone: timeZone))
    }

    /// The month and the day, as a reader says "on this day": "November 25", "11월 25일".
    public func monthAndDay(of date: Date) -> String {
        var style = Date.FormatStyle(date: .omitted, time: .omitted, locale: locale, timeZone: timeZone)
        style = style.month(.wide).day()
        return date.formatted(style)
    }

    public func string(from date: Date) -> String {
        var style = Date.FormatStyle(date: .long, time: .omitted, locale: locale, timeZone: timeZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        style.calendar = calendar
        guard date < Self.gregorianReform else { return date.formatted(style) }
        // Foundation's Gregorian calendar is Julian before 15 October 1582; ISO 8601, the web
        // app and every export count those years by the Gregorian rules (0001-01-01 is January 1,
        // not January 3). So the day is worked out here, and Foundation only spells it: the
        // calendar's own date with that year, month and day is formatted.
        let local = date.millisecondsSince1970 + Int64(timeZone.secondsFromGMT(for: date)) * 1000
        let (days, _) = local.quotientAndRemainder(dividingBy: 86_400_000)
        let civil = ISODate.civil(daysSince1970: local < 0 && local % 86_400_000 != 0 ? days - 1 : days)
        let components = DateComponents(year: Int(civil.year), month: Int(civil.month), day: Int(civil.day), hour: 12)
        // 5–14 October 1582 are not days of Foundation's calendar at all: those ten are written
        // as ISO dates, which say the same day unmistakably in any language.
        guard let spelled = calendar.date(from: components),
              calendar.dateComponents([.year, .month, .day], from: spelled) == DateComponents(year: components.year, month: components.month, day: components.day)
        else { return String(ISODate.string(from: Date(millisecondsSince1970: local)).prefix(10)) }
        return spelled.formatted(style)
    }

    /// 1582-10-15T00:00:00Z, the first day Foundation's Gregorian calendar counts as Gregorian.
    private static let gregorianReform = Date(timeIntervalSince1970: -12_219_292_800)
}
