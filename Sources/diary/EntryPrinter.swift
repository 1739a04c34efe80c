import DiaryCore
import Foundation

/// How entries look in a terminal, and as JSON for scripts.
struct EntryPrinter {
    let dates = LongDate(environment: ProcessInfo.processInfo.environment)

    /// Standard output: at a terminal, control characters in the text are shown (`TerminalText`),
    /// never sent, lines fit its width, and ids and dates are dimmed. Piped output stays byte for
    /// byte what was saved.
    let terminal: Terminal

    init(terminal: Terminal = .standardOutput()) {
        self.terminal = terminal
    }

    func time(of date: Date) -> String { dates.time(of: date) }

    /// Short ids are unique enough to type, and any unique prefix is accepted.
    static let shortIDLength = 8

    /// `3f2a9c1e  December 22, 2020  Title — the first line of the body`
    func line(_ entry: EntrySummary, detail: String? = nil) -> Output.Styled {
        let id = String(entry.id.diaryString.prefix(Self.shortIDLength))
        var text = entry.title.isBlank ? "" : entry.title
        let more = (detail ?? entry.excerpt).trimmingCharacters(in: .whitespaces)
        if !more.isEmpty { text += text.isEmpty ? more : " — " + more }
        if !entry.tags.isEmpty { text += "  " + Tags.hashtags(entry.tags) }
        let weather = (entry.starred ? "★ " : "") + (entry.weather.map { $0.condition.emoji + " " } ?? "")
        let clock = dates.onClock(of: entry.timeZone)
        let head = shown("\(id)  \(clock.string(from: entry.createdAt)) \(clock.time(of: entry.createdAt))")
        // Piped, a line keeps 120 characters of text; at a terminal it fits the width instead.
        var line = head + "  " + shown(weather + (terminal.width == nil ? String(text.prefix(120)) : text))
        if let width = terminal.width { line = DisplayWidth.fit(line, to: width) }
        guard terminal.colour, line.hasPrefix(head) else { return Output.Styled(line) }
        return Output.Styled(terminal.dim(head) + line.dropFirst(head.count))
    }

    /// The whole entry: title, date, id, then the body.
    func full(_ entry: Entry) -> Output.Styled {
        var lines: [String] = []
        if !entry.title.isBlank { lines.append(entry.title) }
        // On its writer's clock, naming the zone when that clock differs from this computer's.
        let clock = dates.onClock(of: entry.timeZone)
        let same = clock.timeZone.secondsFromGMT(for: entry.createdAt) == dates.timeZone.secondsFromGMT(for: entry.createdAt)
        let zone = same ? "" : " (\(entry.timeZone ?? clock.timeZone.identifier))"
        var meta = "\(clock.string(from: entry.createdAt)) \(clock.time(of: entry.createdAt))\(zone) · \(entry.id.diaryString)"
        if let weather = entry.weather {
            meta += " · \(weather.condition.emoji) \(weather.description)"
            // Only a sensible number is shown: Int() of 1e300 (a hostile provider's) would trap.
            if let temperature = weather.temperatureCelsius, abs(temperature) < 1_000 { meta += " \(Int(temperature.rounded()))°C" }
        }
        if entry.starred { meta += " · ★ starred" }
        if entry.isInTrash { meta += " · in the trash" }
        lines.append(meta)
        if !entry.tags.isEmpty { lines.append(Tags.hashtags(entry.tags)) }
        if !entry.body.isBlank { lines.append(""); lines.append(entry.body) }
        if !entry.photos.isEmpty {
            // Named by the start of their name, as entries are; the web app shows the photos.
            lines.append("")
            lines.append(entry.photos.count == 1 ? "1 photo:" : "\(entry.photos.count) photos:")
            for (index, photo) in entry.photos.enumerated() {
                var line = "  \(index + 1). \(photo.id.short) · \(photo.width) × \(photo.height)"
                if !photo.caption.isBlank { line += " · " + photo.caption.split(whereSeparator: \.isNewline).joined(separator: " ") }
                lines.append(line)
            }
        }
        var shownLines = lines.map(shown)
        if terminal.colour {
            if !entry.title.isBlank { shownLines[0] = terminal.bold(shownLines[0]) }
            let meta = entry.title.isBlank ? 0 : 1
            shownLines[meta] = terminal.dim(shownLines[meta])
        }
        return Output.Styled(shownLines.joined(separator: "\n"))
    }

    /// `text` as it may be written to standard output: made visible for a terminal, else as it
    /// is (as `Output` writes it); shown before diary's own colours are added around it.
    private func shown(_ text: String) -> String {
        terminal.isTerminal ? TerminalText.visible(text) : text
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try DiaryJSON.encoder(pretty: true).encode(value), as: UTF8.self)
    }
}
