import Foundation

/// A date in the long form of the reader's language: "2020년 12월 22일", "December 22, 2020".
public struct LongDate: Sendable {
    public let locale: Locale
    public let timeZone: TimeZone

    public init(locale: Locale, timeZone: TimeZone = .current) {
        self.locale = locale
        self.timeZone = timeZone
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

    public func string(from date: Date) -> String {
        var style = Date.FormatStyle(date: .long, time: .omitted, locale: locale, timeZone: timeZone)
        style.calendar = Calendar(identifier: .gregorian)
        return date.formatted(style)
    }
}
