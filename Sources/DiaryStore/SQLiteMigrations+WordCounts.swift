extension SQLiteMigrations {
    /// How v8-word-counts counts the words of the entries written before it: a frozen copy of
    /// DiaryCore's `WordCount` as the migration has run it since 2026-11-25 (commit 762478d).
    ///
    /// A migration must do tomorrow exactly what it did the day it was written, even when the
    /// app's rule changes: a file upgraded next year gets the counts a file upgraded today got.
    /// So the migration calls no application code; if `WordCount`'s rule changes, new writes
    /// follow it, and recounting the entries already kept is a new migration's work, never an
    /// edit of this copy. (What is a letter or a space is read from the Swift runtime's Unicode
    /// tables, as the app's rule reads it; the rule is what stands still here.)
    enum WordCountV8 {
        /// An entry's words: its title's and its body's.
        static func of(title: String, body: String) -> Int {
            of(title) + of(body)
        }

        /// What stands between spaces, with a letter or a digit in it; each Chinese character
        /// or kana on its own.
        static func of(_ text: String) -> Int {
            var count = 0
            var inWord = false
            var wordHasLetter = false
            for scalar in text.unicodeScalars {
                if scalar.properties.isWhitespace {
                    if inWord && wordHasLetter { count += 1 }
                    inWord = false
                    wordHasLetter = false
                } else if isIdeographOrKana(scalar) {
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
}
