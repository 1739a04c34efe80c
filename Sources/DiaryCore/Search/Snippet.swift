import Foundation

/// The words around a search match, so a reader sees why an entry was found.
public enum Snippet {
    /// About this many characters of text.
    public static let length = 160

    /// Text around the first place any word of `query` occurs in `body` (or the start of the
    /// body when the match was in the title), with "…" where the text was cut.
    public static func of(_ body: String, matching query: String) -> String {
        let words = query.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        // Lowercased and searched with the standard library: Foundation's case- and
        // diacritic-insensitive search costs milliseconds per body, and a search shows twenty.
        let lowered = body.lowercased()
        let offsets = words.compactMap { word in
            lowered.firstRange(of: word).map { lowered.distance(from: lowered.startIndex, to: $0.lowerBound) }
        }
        // Lowercasing keeps the count of characters but for rare letters; clamp to be safe.
        guard let offset = offsets.min(),
              let match = body.index(body.startIndex, offsetBy: offset, limitedBy: body.endIndex)
        else { return excerpt(body, from: body.startIndex) }
        // Start a little before the match, at a word boundary when one is near.
        let lead = Self.length / 4
        var start = body.index(match, offsetBy: -lead, limitedBy: body.startIndex) ?? body.startIndex
        if start != body.startIndex, let space = body[start..<match].firstIndex(where: { $0.isWhitespace }) {
            start = body.index(after: space)
        }
        return excerpt(body, from: start)
    }

    private static func excerpt(_ body: String, from start: String.Index) -> String {
        let end = body.index(start, offsetBy: Self.length, limitedBy: body.endIndex) ?? body.endIndex
        // One line: paragraphs, and any run of spaces, tabs or line breaks, become one space.
        var text = body[start..<end].split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        if start != body.startIndex { text = "…" + text }
        if end != body.endIndex { text += "…" }
        return text
    }
}
