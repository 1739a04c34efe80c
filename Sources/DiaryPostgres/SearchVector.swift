import DiaryCore

/// An entry's words as PostgreSQL keeps them for search: a `tsvector` written out by Diary
/// itself (`SearchWords`, the tokens SQLite's index holds, so both backends find the same
/// entries), with each word's positions, the title's weighted A. PostgreSQL's own parsers
/// ('simple' included) would cut Korean and accented words differently.
///
/// A `tsvector` has limits that an FTS5 index has not; past them, search still finds the
/// entry by its first words but ranks it a little differently: positions stop at 16,383 (a
/// phrase later in a longer entry is found by its words, not their order), a word keeps 256
/// positions, a word is cut to 2,046 bytes, and a vector holds about 1 MB (an entry of
/// hundreds of thousands of different words keeps the first ones).
enum SearchVector {
    static let largestPosition = 16_383
    static let positionsPerWord = 256
    static let longestWord = 2_046
    static let budget = 1_000_000

    /// The `tsvector` literal of an entry, and how many words its title and body have.
    static func of(title: String, body: String) -> (vector: String, titleWords: Int, bodyWords: Int) {
        let titleWords = SearchWords.of(SearchText.indexed(title))
        let bodyWords = SearchWords.of(SearchText.indexed(body))
        var order: [Bytes] = []
        var positions: [Bytes: [(Int, Bool)]] = [:]
        var size = 0
        func add(_ word: String, at position: Int, inTitle: Bool) {
            let word = Bytes(cut(word))
            if positions[word] == nil {
                size += word.text.utf8.count + 8
                guard size < budget else { return }
                order.append(word)
                positions[word] = []
            }
            guard position <= largestPosition, positions[word]!.count < positionsPerWord else { return }
            size += 2
            positions[word]!.append((position, inTitle))
        }
        for (index, word) in titleWords.enumerated() { add(word, at: index + 1, inTitle: true) }
        // A gap of one position: no phrase runs from the title's last word into the body.
        let bodyStart = titleWords.count + 2
        for (index, word) in bodyWords.enumerated() { add(word, at: bodyStart + index, inTitle: false) }
        var vector = ""
        vector.reserveCapacity(size + order.count * 4)
        for word in order {
            if !vector.isEmpty { vector += " " }
            vector += quoted(word.text)
            for (index, (position, inTitle)) in positions[word]!.enumerated() {
                vector += index == 0 ? ":" : ","
                vector += String(position)
                if inTitle { vector += "A" }
            }
        }
        return (vector, titleWords.count, bodyWords.count)
    }

    /// Each term of a query as the words it must match (next to each other, in order), and
    /// whether its last word may be the start of a longer one; `nil` when no term has a word.
    static func terms(of query: SearchQuery) -> [Term]? {
        let terms = query.terms.compactMap { term -> Term? in
            let words = term.tokens.flatMap { SearchWords.of($0) }.map(cut)
            return words.isEmpty ? nil : Term(words: words, isPrefix: term.isPrefix)
        }
        return terms.isEmpty ? nil : terms
    }

    struct Term: Sendable {
        var words: [String]
        var isPrefix: Bool
    }

    /// The `tsquery` literal of `terms`: every term, each a phrase of its words.
    static func query(_ terms: [Term]) -> String {
        terms.map { term in
            term.words.enumerated().map { index, word in
                quoted(word) + (term.isPrefix && index == term.words.count - 1 ? ":*" : "")
            }.joined(separator: " <-> ")
        }.map { "(\($0))" }.joined(separator: " & ")
    }

    /// A word compared and hashed byte for byte, as PostgreSQL compares lexemes (Swift's `==`
    /// takes a Hangul syllable and its conjoining letters for the same).
    struct Bytes: Hashable {
        let text: String
        private let bytes: [UInt8]

        init(_ text: String) {
            self.text = text
            self.bytes = Array(text.utf8)
        }

        static func == (a: Bytes, b: Bytes) -> Bool { a.bytes == b.bytes }

        func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
    }

    /// A lexeme in quotes, as `tsvector` and `tsquery` read one.
    static func quoted(_ word: String) -> String {
        var out = "'"
        for character in word {
            if character == "'" { out += "''" } else if character == "\\" { out += "\\\\" } else { out.append(character) }
        }
        return out + "'"
    }

    /// A word as long as a lexeme may be, cut at a character's edge.
    static func cut(_ word: String) -> String {
        guard word.utf8.count > longestWord else { return word }
        var bytes = 0
        var kept = String.UnicodeScalarView()
        for scalar in word.unicodeScalars {
            bytes += String(scalar).utf8.count
            if bytes > longestWord { break }
            kept.append(scalar)
        }
        return String(kept)
    }
}
