import Foundation

/// A diary as Markdown: readable anywhere, one section per entry, oldest first.
///
/// Each entry's moment is written in the reader's language and time zone, with the exact
/// moment kept beside it in an HTML comment (hidden when the file is shown). Body lines that
/// Markdown would read as a heading or a rule are escaped, so a body can never be mistaken for
/// the start of another entry.
public struct MarkdownExport {
    let dates: LongDate

    public init(dates: LongDate) {
        self.dates = dates
    }

    /// The file's first line: the diary's name in the reader's language.
    public var header: String { isKorean ? "# 일기장\n" : "# Diary\n" }

    /// One entry: its title as a heading, when it was written, then its body, then its photos,
    /// each linked to its file in `photos/` beside the Markdown (as the ZIP export lays them
    /// out), `files` naming each photo's file.
    public func section(for entry: Entry, photoFiles files: [PhotoID: String] = [:]) -> String {
        let title = entry.title.isBlank ? untitled : entry.title
        let dates = self.dates.onClock(of: entry.timeZone)
        let when = "\(dates.string(from: entry.createdAt)) \(dates.time(of: entry.createdAt))"
        let star = entry.starred ? " ★" : ""
        var text = "\n## \(title)\(star)\n\n*\(when)* <!-- \(ISODate.string(from: entry.createdAt)) -->\n"
        if !entry.tags.isEmpty { text += "\n" + Tags.hashtags(entry.tags) + "\n" }
        if !entry.body.isBlank { text += "\n\(Self.escaped(entry.body.trimmingCharacters(in: .newlines)))\n" }
        for photo in entry.photos {
            let caption = photo.caption.split(whereSeparator: \.isNewline).joined(separator: " ")
                .replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
            text += "\n![\(caption)](photos/\(files[photo.id] ?? photo.id.hex))\n"
        }
        return text
    }

    /// An entry without a title, in the reader's language.
    var untitled: String { isKorean ? "제목 없음" : "Untitled" }

    private var isKorean: Bool { dates.locale.language.languageCode?.identifier == "ko" }

    /// `body` with every line that would be a heading (`# …`, or the `===`/`---` under a line)
    /// or a rule (`***`, `- - -`) escaped by a backslash before its first mark. A line ends where
    /// Markdown ends it: at LF, CR LF or a CR alone; each line keeps its own ending.
    public static func escaped(_ body: String) -> String {
        var text = "", start = body.startIndex
        // "\r\n" is one Character to Swift: a split at "\n" alone would never see it.
        for end in body.indices where ["\n", "\r\n", "\r"].contains(body[end]) {
            text += escapedLine(body[start..<end]) + String(body[end])
            start = body.index(after: end)
        }
        return text + escapedLine(body[start...])
    }

    private static func escapedLine(_ line: Substring) -> String {
        let indent = line.prefix { $0 == " " }
        guard indent.count <= 3, let mark = line.dropFirst(indent.count).first else { return String(line) }
        let rest = line.dropFirst(indent.count)
        let heading = mark == "#" && rest.prefix { $0 == "#" }.count <= 6
            && (rest.drop { $0 == "#" }.first.map { $0 == " " || $0 == "\t" } ?? true)
        let marks = rest.filter { $0 != " " && $0 != "\t" }
        let underline = (mark == "=" || mark == "-") && marks.allSatisfy { $0 == mark } && rest.drop { $0 == mark }.allSatisfy { $0 == " " || $0 == "\t" }
        let rule = "-*_".contains(mark) && marks.count >= 3 && marks.allSatisfy { $0 == mark }
        return heading || underline || rule ? indent + "\\" + rest : String(line)
    }
}
