/// How many words an entry holds, as a writer counts them: what stands between spaces (an
/// English word, a Korean 어절), and each Chinese character or kana on its own, since Chinese and
/// Japanese put no spaces between words. A run of marks alone ("—", "...") is no word.
///
/// Counted once when an entry is written and kept beside it, so the year's statistics add up
/// numbers instead of reading every body.
public enum WordCount {
    public static func of(_ text: String) -> Int {
        var count = 0
        var inWord = false
        var wordHasLetter = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                if inWord && wordHasLetter { count += 1 }
                inWord = false
                wordHasLetter = false
            } else if isIdeographOrKana(scalar) {
                // A word on its own; what ran before it is a word of its own too, if it had a letter.
                if inWord && wordHasLetter { count += 1 }
                count += 1
                inWord = false
                wordHasLetter = false
            } else {
                inWord = true
                if !wordHasLetter, scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                    wordHasLetter = true
                }
            }
        }
        if inWord && wordHasLetter { count += 1 }
        return count
    }

    /// An entry's words: its title's and its body's.
    public static func of(title: String, body: String) -> Int {
        of(title) + of(body)
    }

    private static func isIdeographOrKana(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x309B, 0x309C, 0x30A0, 0x30FB:  // voicing marks, a double hyphen, a middle dot: marks
            false
        case 0x3040...0x30FF, 0xFF66...0xFF9F,  // hiragana, katakana, half-width katakana
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,  // CJK ideographs
             0x20000...0x323AF:  // CJK extensions B to H, with the compatibility supplement
            true
        default:
            false
        }
    }
}

extension Entry {
    /// How many words the entry holds (`WordCount`).
    public var wordCount: Int { WordCount.of(title: title, body: body) }
}
