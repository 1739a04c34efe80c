import Foundation

/// The words around a search match, so a reader sees why an entry was found.
public enum Snippet {
    /// About this many characters of text.
    public static let length = 160

    /// Text around the first place any word of `query` occurs in `body` (or the start of the
    /// body when the match was in the title), with "…" where the text was cut.
    public static func of(_ body: String, matching query: String) -> String {
        let words = query.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        let firstMatch = words.compactMap { body.range(of: $0, options: options)?.lowerBound }.min()
        guard let match = firstMatch else { return excerpt(body, from: body.startIndex) }
        // Start a little before the match, at a word boundary when one is near.
        let lead = Self.length / 4
        var start = body.index(match, offsetBy: -lead, limitedBy: body.startIndex) ?? body.startIndex
        if start != body.startIndex, let space = body[start..<match].firstIndex(where: \.isWhitespace) {
            start = body.index(after: space)
        }
        return excerpt(body, from: start)
    }

    private static func excerpt(_ body: String, from start: String.Index) -> String {
        let end = body.index(start, offsetBy: Self.length, limitedBy: body.endIndex) ?? body.endIndex
        var text = body[start..<end].replacingOccurrences(of: "\n", with: " ")
            .trimmingCharacters(in: .whitespaces)
        if start != body.startIndex { text = "…" + text }
        if end != body.endIndex { text += "…" }
        return text
    }
}
