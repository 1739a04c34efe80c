import DiaryCore
import Foundation

/// How entries look in a terminal, and as JSON for scripts.
struct EntryPrinter {
    let dates = LongDate(environment: ProcessInfo.processInfo.environment)
    /// The time of day in the reader's language and zone: "21:30", "9:30 PM", "오후 9:30".
    private let clock: DateFormatter

    /// Whether standard output is a terminal: then control characters in the text are shown
    /// (`TerminalText`), never sent. Piped output stays byte for byte what was saved.
    let terminal: Bool

    init(terminal: Bool = isatty(STDOUT_FILENO) == 1) {
        self.terminal = terminal
        clock = DateFormatter()
        clock.locale = dates.locale
        clock.timeZone = dates.timeZone
        clock.dateStyle = .none
        clock.timeStyle = .short
    }

    func time(of date: Date) -> String { clock.string(from: date) }

    /// Short ids are unique enough to type, and any unique prefix is accepted.
    static let shortIDLength = 8

    /// `3f2a9c1e  December 22, 2020  Title — the first line of the body`
    func line(_ entry: EntrySummary, detail: String? = nil) -> String {
        let id = String(entry.id.diaryString.prefix(Self.shortIDLength))
        var text = entry.title.isBlank ? "" : entry.title
        let more = (detail ?? entry.excerpt).trimmingCharacters(in: .whitespaces)
        if !more.isEmpty { text += text.isEmpty ? more : " — " + more }
        let weather = entry.weather.map { $0.condition.emoji + " " } ?? ""
        return shown("\(id)  \(dates.string(from: entry.createdAt)) \(time(of: entry.createdAt))  \(weather)\(String(text.prefix(120)))")
    }

    /// The whole entry: title, date, id, then the body.
    func full(_ entry: Entry) -> String {
        var lines: [String] = []
        if !entry.title.isBlank { lines.append(entry.title) }
        var meta = "\(dates.string(from: entry.createdAt)) \(time(of: entry.createdAt)) · \(entry.id.diaryString)"
        if let weather = entry.weather {
            meta += " · \(weather.condition.emoji) \(weather.description)"
            // Only a sensible number is shown: Int() of 1e300 (a hostile provider's) would trap.
            if let temperature = weather.temperatureCelsius, abs(temperature) < 1_000 { meta += " \(Int(temperature.rounded()))°C" }
        }
        if entry.isInTrash { meta += " · in the trash" }
        lines.append(meta)
        if !entry.body.isBlank { lines.append(""); lines.append(entry.body) }
        return shown(lines.joined(separator: "\n"))
    }

    /// `text` as it may be written to standard output: made visible for a terminal, else as it is.
    func shown(_ text: String) -> String {
        terminal ? TerminalText.visible(text) : text
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try DiaryJSON.encoder(pretty: true).encode(value), as: UTF8.self)
    }
}
