/// Day One's entry text, which is Markdown: its first line is the title as Day One shows it
/// (often a `# ` heading), punctuation the writer typed is escaped (`\.`, `\-`, `\!`), and each
/// photo sits where its writer put it as `![](dayone-moment://<identifier>)`.
enum DayOneText {
    /// A photo, video, audio or PDF placed in the text.
    struct Moment: Equatable {
        /// "photo", or the kind a path names (`dayone-moment:/video/<id>`).
        let kind: String
        let identifier: String
        /// The image's alt text: where Diary writes a photo's caption (Day One has no field for it).
        let caption: String
    }

    /// The title and body the writer typed (moments taken out, escapes undone), and the
    /// moments in the order the text places them.
    static func read(_ markdown: String) -> (title: String, body: String, moments: [Moment]) {
        var moments: [Moment] = []
        var lines: [Substring] = []
        var removed = false
        // Lines as Day One on any system writes them ("\r\n" is one Character, no "\n").
        let markdown = markdown.contains("\r") ? markdown.replacingOccurrences(of: "\r\n", with: "\n") : markdown
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let (rest, found) = Self.takingMoments(from: line)
            moments += found
            // A line that held only moments goes; one with words keeps them. The blank line
            // that set a photo apart goes with it, so paragraphs stay one blank line apart.
            if !found.isEmpty && rest.allSatisfy(\.isWhitespace) {
                removed = true
                continue
            }
            if removed, line.allSatisfy(\.isWhitespace), lines.last?.allSatisfy(\.isWhitespace) == true {
                continue
            }
            removed = false
            lines.append(found.isEmpty ? line : Substring(rest))
        }
        // The blank lines left before a photo at the end were the photo's spacing, not text.
        if !moments.isEmpty { while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() } }
        guard let first = lines.first else { return ("", "", moments) }
        var title = first
        if title.hasPrefix("#") {
            let marks = title.prefix { $0 == "#" }
            if marks.count <= 6, title.dropFirst(marks.count).first?.isWhitespace ?? true {
                title = title.dropFirst(marks.count).drop(while: \.isWhitespace)
            }
        }
        var body = lines.dropFirst().drop { $0.allSatisfy(\.isWhitespace) }.joined(separator: "\n")
        var heading = unescaped(title)
        // A first paragraph longer than any title is the start of the body, not a title.
        if heading.unicodeScalars.count > EntryText.maximumTitleLength {
            heading = ""
            body = lines.joined(separator: "\n")
        }
        return (heading, unescaped(body), moments)
    }

    /// `line` without its moments, and the moments.
    private static func takingMoments(from line: Substring) -> (String, [Moment]) {
        guard line.contains("dayone-moment:") else { return (String(line), []) }
        var rest = ""
        var moments: [Moment] = []
        var index = line.startIndex
        while index < line.endIndex {
            if line[index...].hasPrefix("!["), let found = Self.moment(in: line, at: index) {
                moments.append(found.moment)
                index = found.end
            } else {
                rest.append(line[index])
                index = line.index(after: index)
            }
        }
        return (rest, moments)
    }

    /// The moment `![alt](dayone-moment://id)` starting at `start`, and where it ends.
    private static func moment(in line: Substring, at start: Substring.Index) -> (moment: Moment, end: Substring.Index)? {
        var index = line.index(start, offsetBy: 2)
        var alt = ""
        while index < line.endIndex, line[index] != "]" {
            if line[index] == "\\", line.index(after: index) < line.endIndex {
                alt.append(line[index])
                index = line.index(after: index)
            }
            alt.append(line[index])
            index = line.index(after: index)
        }
        let scheme = "](dayone-moment:"
        guard index < line.endIndex, line[index...].hasPrefix(scheme) else { return nil }
        index = line.index(index, offsetBy: scheme.count)
        guard let close = line[index...].firstIndex(of: ")") else { return nil }
        let path = line[index..<close].drop { $0 == "/" }
        let parts = path.split(separator: "/")
        guard let identifier = parts.last, !identifier.isEmpty else { return nil }
        let kind = parts.count > 1 ? String(parts[parts.count - 2]) : "photo"
        return (Moment(kind: kind, identifier: String(identifier), caption: unescaped(alt)), line.index(after: close))
    }

    /// Markdown's backslash escapes undone: `\` before ASCII punctuation stands for it alone.
    static func unescaped(_ text: some StringProtocol) -> String {
        guard text.contains("\\") else { return String(text) }
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            if text[index] == "\\", next < text.endIndex, let ascii = text[next].asciiValue, Self.punctuation.contains(ascii) {
                out.append(text[next])
                index = text.index(after: next)
            } else {
                out.append(text[index])
                index = next
            }
        }
        return out
    }

    /// Words as Markdown that shows them as typed: every mark Markdown could read escaped, as
    /// Day One escapes them.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            if let ascii = character.asciiValue, Self.escapedMarks.contains(ascii) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// `title`, `body` and photos as Day One's text: `# Title`, a blank line, the body, then
    /// each photo on a line of its own, its caption as the image's alt text.
    static func write(title: String, body: String, photos: [(identifier: String, caption: String)]) -> String {
        // An untitled entry starts with an empty line, so that its body's first line is not
        // read back as its title.
        var text = title.isEmpty ? "\n" : "# " + escaped(title) + "\n"
        if !body.isEmpty { text += (title.isEmpty ? "" : "\n") + escaped(body) }
        if !photos.isEmpty {
            text += "\n\n" + photos.map { "![\(escaped(Self.oneLine($0.caption)))](dayone-moment://\($0.identifier))" }.joined(separator: "\n")
        }
        return text
    }

    /// A caption on one line: the alt text of a Markdown image cannot break one.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    /// ASCII punctuation: what a backslash may escape in Markdown (CommonMark).
    private static let punctuation = Set(Array("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".utf8))
    /// The marks written escaped: those that start or end Markdown's emphasis, links, headings,
    /// lists, quotes, code and tables.
    private static let escapedMarks = Set(Array("\\`*_{}[]<>()#+-.!|~".utf8))
}
