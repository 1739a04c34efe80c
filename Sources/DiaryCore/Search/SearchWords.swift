/// The words a search index keeps of a text, cut and folded as SQLite's FTS5 `unicode61`
/// tokenizer (with `remove_diacritics 2`) cuts and folds them, so that a backend that has no
/// such tokenizer (PostgreSQL keeps these words in a `tsvector`) finds the same entries.
///
/// Give it text as `SearchText.indexed` makes it (CJK runs already cut into bigrams), or a
/// query's tokens. A word is a run of letters, digits, private-use characters and the
/// combining accents FTS5 folds away; everything else separates words. Each character is
/// case-folded (one character for one: "ß" stays, "ẞ" becomes "ß", "ς" becomes "σ"), and a
/// Latin letter with accents becomes its ASCII letter ("é" → "e", "ǖ" → "u"; "ø" stays).
///
/// FTS5's tables are Unicode 6.1's: a character assigned since (a newer emoji, a newer letter)
/// is to FTS5 an unassigned one, which it keeps in a word as it is; so it is here (Swift tells
/// a character's age). Only the few characters whose category Unicode changed since (New Tai
/// Lue's tone marks) are cut differently. `SearchWordsTests` compares the two on random text
/// of every plane, and on real diaries.
public enum SearchWords {
    /// The words of `text`, in order.
    public static func of(_ text: String) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var inWord = false
        for scalar in text.unicodeScalars {
            if isFoldedAway(scalar) {
                // Part of a word, but leaves nothing in it: "e" + U+0301 is "e".
                inWord = true
            } else if !inFTS5Unicode(scalar) {
                // Unassigned in Unicode 6.1 (a newer emoji, a newer letter): FTS5 takes it for
                // part of a word and leaves it as it is.
                inWord = true
                word.append(scalar)
            } else if isWordCharacter(scalar) {
                inWord = true
                fold(scalar, into: &word)
            } else if inWord {
                if !word.isEmpty { words.append(String(word)) }
                word = String.UnicodeScalarView()
                inWord = false
            }
        }
        if !word.isEmpty { words.append(String(word)) }
        return words
    }

    /// Whether `scalar` was assigned in Unicode 6.1, the version FTS5's tables know.
    static func inFTS5Unicode(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return true }
        guard let age = scalar.properties.age, scalar.properties.generalCategory != .unassigned else { return false }
        return age.major < 6 || (age.major == 6 && age.minor <= 1)
    }

    /// Letters, digits (every kind of number) and private-use characters: FTS5's default
    /// categories, "L* N* Co".
    static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse:
            return true
        default:
            return false
        }
    }

    /// The combining accents that FTS5 counts as part of a word and removes from it (its
    /// `sqlite3Fts5UnicodeIsdiacritic`: U+0300 to U+0331, as two bit masks).
    static func isFoldedAway(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard (0x300...0x331).contains(value) else { return false }
        let low: UInt32 = 0x0802_9FDF, high: UInt32 = 0x0003_61F8
        return value < 0x320 ? low & (1 << (value - 0x300)) != 0 : high & (1 << (value - 0x320)) != 0
    }

    /// Case folding, one character for one, where it differs from lower-casing.
    private static let folded: [UInt32: Unicode.Scalar] = [
        0x00B5: "\u{03BC}",  // µ → μ
        0x017F: "s",  // ſ
        0x0345: "\u{03B9}",
        0x03C2: "\u{03C3}",  // ς → σ
        0x03D0: "\u{03B2}", 0x03D1: "\u{03B8}", 0x03D5: "\u{03C6}", 0x03D6: "\u{03C0}",
        0x03F0: "\u{03BA}", 0x03F1: "\u{03C1}", 0x03F5: "\u{03B5}",
        0x1E9B: "\u{1E61}",  // ẛ → ṡ (then s)
        0x1E9E: "\u{00DF}",  // ẞ → ß
        0x1FBE: "\u{03B9}",
    ]

    private static func fold(_ scalar: Unicode.Scalar, into word: inout String.UnicodeScalarView) {
        if scalar.isASCII {
            let value = scalar.value
            word.append((0x41...0x5A).contains(value) ? Unicode.Scalar(value + 0x20)! : scalar)
            return
        }
        // Lower case, one character for one: "İ" is "i" and a dot above, of which the dot goes.
        // (Most characters, Hangul among them, have no other case: asked cheaply first.)
        let properties = scalar.properties
        let lower = folded[scalar.value]
            ?? (properties.changesWhenLowercased ? properties.lowercaseMapping.unicodeScalars.first ?? scalar : scalar)
        // A lower case that Unicode added after 6.1 (Cherokee's) FTS5 does not know.
        guard inFTS5Unicode(lower) else {
            word.append(scalar)
            return
        }
        word.append(withoutAccents(lower))
    }

    /// A Latin letter whose canonical decomposition is an ASCII letter and accents, as that
    /// letter; any other character as it is (Greek "ά", Cyrillic "й" and Hangul keep theirs).
    private static func withoutAccents(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        // "ǡ" is the one letter of these ranges that FTS5's table leaves as it is.
        guard (0xC0...0x24F).contains(scalar.value) || (0x1E00...0x1EFF).contains(scalar.value), scalar.value != 0x1E1
        else { return scalar }
        let parts = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
        guard let base = parts.first, base.isASCII, base.properties.isAlphabetic,
              parts.dropFirst().allSatisfy({ (0x300...0x36F).contains($0.value) })
        else { return scalar }
        return base.properties.lowercaseMapping.unicodeScalars.first ?? base
    }
}

/// How well an entry matches a query, from its own words alone (no statistics of the whole
/// index, which every diary of a database shares): how many of the query's terms are in the
/// title (a title match always ranks above a body match), then BM25's term-frequency part of
/// each term in the title and in the body, with fixed typical lengths in place of averages.
/// SQLite computes it in `diary_rank` (C, inside the query); PostgreSQL's backend in Swift.
public enum SearchScore {
    /// The score of an entry whose title holds `titleCounts[i]` instances of term `i` and
    /// whose body `bodyCounts[i]`, its title and body being `titleLength` and `bodyLength` words.
    public static func of(titleCounts: [Int], bodyCounts: [Int], titleLength: Int, bodyLength: Int) -> Double {
        var score = 0.0
        for term in titleCounts.indices {
            if titleCounts[term] > 0 { score += titleWordScore }
            score += weight(count: titleCounts[term], length: titleLength, typical: typicalTitleTokens)
            score += weight(count: bodyCounts[term], length: bodyLength, typical: typicalBodyTokens)
        }
        return score
    }

    /// BM25's saturation of a word's count in a column, with `typical` tokens standing in for the
    /// average length (k1 = 1.2, b = 0.75, as in FTS5's `bm25`).
    public static func weight(count: Int, length: Int, typical: Double) -> Double {
        guard count > 0 else { return 0 }
        let k1 = 1.2, b = 0.75
        let frequency = Double(count)
        return frequency * (k1 + 1) / (frequency + k1 * (1 - b + b * Double(length) / typical))
    }

    /// A title of a few words and a body of a page: what most entries are.
    public static let typicalTitleTokens = 6.0
    public static let typicalBodyTokens = 300.0
    /// Above any sum of the weights (at most 2.2 a word and column, 16 words): the number of
    /// words in the title comes first.
    public static let titleWordScore = 1_000.0
}
