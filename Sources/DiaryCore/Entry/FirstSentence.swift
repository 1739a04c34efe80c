import Foundation

/// jrnl's title rule, for text typed as one run of words (`diary new Rain. It rained all day`):
/// the title is the first line, or else the first sentence, and the rest is the body.
///
/// A sentence ends at `.`, `!`, `?`, `…` (or another sentence mark), with an optional closing
/// quote or bracket, followed by white space; a CJK full stop or full-width mark ends one even
/// without a space. Text with no such end is all title.
public enum FirstSentence {
    /// `(title, body)`, each trimmed of surrounding white space.
    public static func split(_ text: String) -> (title: String, body: String) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let characters = Array(text)
        if let lineBreak = characters.firstIndex(where: \.isNewline) {
            return parts(characters, at: lineBreak + 1)
        }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if fullWidthEnds.contains(character) { return parts(characters, at: index + 1) }
            if sentenceEnds.contains(character) {
                var end = index + 1
                if end < characters.count, closingQuotes.contains(characters[end]) { end += 1 }
                while end < characters.count, characters[end] == ")" || characters[end] == "]" { end += 1 }
                if end < characters.count, characters[end].isWhitespace { return parts(characters, at: end) }
            }
            index += 1
        }
        return (text, "")
    }

    private static func parts(_ characters: [Character], at end: Int) -> (title: String, body: String) {
        (String(characters[..<end]).trimmingCharacters(in: .whitespacesAndNewlines),
         String(characters[end...]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static let sentenceEnds: Set<Character> = [".", "!", "?", "\u{2026}", "\u{203C}", "\u{203D}", "\u{2047}", "\u{2048}", "\u{2049}",
                                                       "\u{22EF}", "\u{FE52}", "\u{FE57}"]
    private static let closingQuotes: Set<Character> = ["'", "\u{2019}", "\"", "\u{201D}"]
    private static let fullWidthEnds: Set<Character> = ["\u{FF01}", "\u{FF0E}", "\u{FF1F}", "\u{FF61}", "\u{3002}"]
}
