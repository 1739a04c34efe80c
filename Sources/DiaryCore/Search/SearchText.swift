/// How text is cut into search terms, in any language.
///
/// Word-based indexes cannot find "일기" inside "일기를": Korean glues particles and endings to
/// its words. So runs of Hangul (and other CJK scripts) become overlapping two-character tokens,
/// the way search engines index CJK (Lucene's CJK bigram filter), while other scripts stay words.
/// "일기를 썼다" is indexed as "일기 기를 를 썼다 다"; any two syllables of it are then one token.
/// The last character of each run is also kept alone, so a one-syllable query can match it.
///
/// The index stays near the size of the text, unlike a trigram index (4.7× measured), and
/// English words keep their ranking. Stores index `indexed(_:)` and query with `terms(of:)`.
public enum SearchText {
    /// The text as the index sees it: CJK runs replaced by their bigram tokens.
    public static func indexed(_ text: String) -> String {
        var out = String()
        out.reserveCapacity(text.utf8.count + text.utf8.count / 2)
        var run: [Character] = []
        for character in text {
            if character.isCJK {
                run.append(character)
            } else {
                if !run.isEmpty { appendTokens(of: run, to: &out, keepingLast: true); run.removeAll(keepingCapacity: true) }
                out.append(character)
            }
        }
        if !run.isEmpty { appendTokens(of: run, to: &out, keepingLast: true) }
        return out
    }

    /// The terms of a query, each a sequence of tokens that must appear next to each other.
    ///
    /// A word of Latin (or any non-CJK) letters is one token and matches as a prefix
    /// ("seren" finds "serenity"); a CJK run becomes its bigrams, to be matched as a phrase.
    public static func terms(of query: String) -> [SearchTerm] {
        var terms: [SearchTerm] = []
        var word = String()
        var run: [Character] = []
        func flush() {
            if !word.isEmpty { terms.append(SearchTerm(tokens: [word], isPrefix: true)); word = "" }
            if !run.isEmpty {
                if run.count == 1 {
                    terms.append(SearchTerm(tokens: [String(run[0])], isPrefix: true))
                } else {
                    let bigrams = (0..<(run.count - 1)).map { String(run[$0]) + String(run[$0 + 1]) }
                    terms.append(SearchTerm(tokens: bigrams, isPrefix: false))
                }
                run = []
            }
        }
        for character in query {
            if character.isCJK {
                if !word.isEmpty { flush() }
                run.append(character)
            } else if character.isLetter || character.isNumber {
                if !run.isEmpty { flush() }
                word.append(character)
            } else {
                flush()
            }
        }
        flush()
        return terms
    }

    private static func appendTokens(of run: [Character], to out: inout String, keepingLast: Bool) {
        out.append(" ")
        if run.count > 1 {
            for index in 0..<(run.count - 1) {
                out.append(run[index])
                out.append(run[index + 1])
                out.append(" ")
            }
        }
        out.append(run[run.count - 1])
        out.append(" ")
    }
}

/// One word of a query as index tokens: they must appear in this order, next to each other.
public struct SearchTerm: Sendable, Hashable {
    public var tokens: [String]
    /// Whether the last token may be the start of a longer one.
    public var isPrefix: Bool

    public init(tokens: [String], isPrefix: Bool) {
        self.tokens = tokens
        self.isPrefix = isPrefix
    }
}

extension Character {
    /// Hangul, Han, Hiragana and Katakana: scripts written without spaces between words
    /// (or, for Korean, with particles glued to them).
    var isCJK: Bool {
        guard let scalar = unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x1100...0x11FF,  // Hangul Jamo
             0x3040...0x30FF,  // Hiragana, Katakana
             0x3130...0x318F,  // Hangul Compatibility Jamo
             0x3400...0x4DBF,  // CJK Extension A
             0x4E00...0x9FFF,  // CJK Unified Ideographs
             0xA960...0xA97F,  // Hangul Jamo Extended-A
             0xAC00...0xD7AF,  // Hangul Syllables
             0xD7B0...0xD7FF,  // Hangul Jamo Extended-B
             0xF900...0xFAFF,  // CJK Compatibility Ideographs
             0x20000...0x2FA1F:  // CJK Extensions B–F
            return true
        default:
            return false
        }
    }
}
