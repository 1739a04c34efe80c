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
        // The blank line set before photos at the end was their spacing, not text (`write`
        // puts one there; the body's own blank lines before it stay).
        if !moments.isEmpty, let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
        guard let first = lines.first else { return ("", "", moments) }
        var title = Substring(first)
        var rest = lines.dropFirst()
        // Read a Unicode scalar at a time: a title that starts with a combining mark or an emoji
        // modifier makes one Character of it and the space before it.
        let scalars = first.unicodeScalars
        let marks = scalars.prefix { $0 == "#" }.count
        if (1...6).contains(marks) {
            let after = scalars.dropFirst(marks)
            if let space = after.first, space.properties.isWhitespace {
                // The one space after the marks is the heading's; any more are the title's.
                title = Substring(after.dropFirst())
            } else if after.isEmpty {
                title = ""
            }
        }
        // One blank line parts a title from its body (`write` puts it there); the body's own
        // leading blank lines are its writer's. An untitled entry's text starts with its empty
        // title line, and its body follows at once.
        if !title.isEmpty, let separator = rest.first, separator.allSatisfy(\.isWhitespace) { rest = rest.dropFirst() }
        var body = rest.joined(separator: "\n")
        var heading = unescaped(title)
        // A first paragraph longer than any title is the start of the body, not a title.
        if heading.unicodeScalars.count > EntryText.maximumTitleLength {
            heading = ""
            body = lines.joined(separator: "\n")
        }
        return (heading, unescaped(body), moments)
    }

    /// `line` without its moments, and the moments. Read a Unicode scalar at a time: a caption
    /// that starts with a combining mark or an emoji modifier makes one Character of it and the
    /// `[` before it (as a prepended mark does of itself and the `]` after it).
    private static func takingMoments(from line: Substring) -> (String, [Moment]) {
        guard line.contains("dayone-moment:") else { return (String(line), []) }
        let scalars = Array(line.unicodeScalars)
        var rest = String.UnicodeScalarView()
        var moments: [Moment] = []
        var index = 0
        while index < scalars.count {
            if scalars[index] == "!", index + 1 < scalars.count, scalars[index + 1] == "[",
               let found = Self.moment(in: scalars, at: index) {
                moments.append(found.moment)
                index = found.end
            } else {
                rest.append(scalars[index])
                index += 1
            }
        }
        return (String(rest), moments)
    }

    /// The moment `![alt](dayone-moment://id)` starting at `start`, and where it ends.
    private static func moment(in scalars: [Unicode.Scalar], at start: Int) -> (moment: Moment, end: Int)? {
        var index = start + 2
        var alt = String.UnicodeScalarView()
        while index < scalars.count, scalars[index] != "]" {
            if scalars[index] == "\\", index + 1 < scalars.count {
                alt.append(scalars[index])
                index += 1
            }
            alt.append(scalars[index])
            index += 1
        }
        let scheme = Array("](dayone-moment:".unicodeScalars)
        guard index + scheme.count <= scalars.count, Array(scalars[index..<(index + scheme.count)]) == scheme else { return nil }
        index += scheme.count
        guard let close = scalars[index...].firstIndex(of: ")") else { return nil }
        let path = String(String.UnicodeScalarView(scalars[index..<close])).drop { $0 == "/" }
        let parts = path.split(separator: "/")
        guard let identifier = parts.last, !identifier.isEmpty else { return nil }
        let kind = parts.count > 1 ? String(parts[parts.count - 2]) : "photo"
        return (Moment(kind: kind, identifier: String(identifier), caption: unescaped(String(alt))), close + 1)
    }

    /// Markdown's backslash escapes undone: `\` before ASCII punctuation stands for it alone;
    /// and the character references `escaped` writes for a carriage return and a line feed
    /// (`&#13;`, `&#10;`), which Markdown reads as those characters too. Read a Unicode scalar at
    /// a time, as `escaped` writes (a mark with an accent on it is still a mark escaped).
    static func unescaped(_ text: some StringProtocol) -> String {
        guard text.contains("\\") || text.contains("&#1") else { return String(text) }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\", index + 1 < scalars.count, scalars[index + 1].isASCII,
               Self.punctuation.contains(UInt8(scalars[index + 1].value)) {
                out.append(scalars[index + 1])
                index += 2
            } else if scalar == "&", let (reference, length) = Self.lineReference(in: scalars, at: index) {
                out.append(reference)
                index += length
            } else {
                out.append(scalar)
                index += 1
            }
        }
        return String(out)
    }

    /// `&#13;` or `&#10;` at `index`: the character, and how many scalars the reference takes.
    private static func lineReference(in scalars: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar, Int)? {
        for (reference, character) in [("&#13;", "\r" as Unicode.Scalar), ("&#10;", "\n")] {
            let wanted = Array(reference.unicodeScalars)
            if index + wanted.count <= scalars.count, Array(scalars[index..<(index + wanted.count)]) == wanted {
                return (character, wanted.count)
            }
        }
        return nil
    }

    /// Words as Markdown that shows them as typed: every mark Markdown could read escaped, as
    /// Day One escapes them. A carriage return is written as the reference `&#13;` (a reader of
    /// Day One's text takes CR LF for a line's end, and it would come back as LF alone), so an
    /// `&` is escaped too, and one typed as `&#13;` comes back as typed. `inLine`: a line feed too
    /// (`&#10;`), for text that must stay on one line (an image's alt text).
    static func escaped(_ text: String, inLine: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\r" {
                out.append(contentsOf: "&#13;".unicodeScalars)
            } else if inLine && scalar == "\n" {
                out.append(contentsOf: "&#10;".unicodeScalars)
            } else {
                if scalar.isASCII, Self.escapedMarks.contains(UInt8(scalar.value)) { out.append("\\") }
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `title`, `body` and photos as Day One's text: `# Title`, a blank line, the body, then
    /// each photo on a line of its own, its caption as the image's alt text.
    static func write(title: String, body: String, photos: [(identifier: String, caption: String)]) -> String {
        // An untitled entry starts with an empty line, so that its body's first line is not
        // read back as its title.
        var text = title.isEmpty ? "\n" : "# " + escaped(title) + "\n"
        if !body.isEmpty { text += (title.isEmpty ? "" : "\n") + escaped(body) }
        if !photos.isEmpty {
            // A caption stays on one line: the alt text of a Markdown image cannot break one.
            text += "\n\n" + photos.map { "![\(escaped($0.caption, inLine: true))](dayone-moment://\($0.identifier))" }.joined(separator: "\n")
        }
        return text
    }

    /// ASCII punctuation: what a backslash may escape in Markdown (CommonMark).
    private static let punctuation = Set(Array("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".utf8))
    /// The marks written escaped: those that start or end Markdown's emphasis, links, headings,
    /// lists, quotes, code and tables.
    private static let escapedMarks = Set(Array("\\`*_{}[]<>()#+-.!|~&".utf8))
}
