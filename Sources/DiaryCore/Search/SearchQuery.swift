import Foundation

/// A writer's search words, checked against the limits that keep every search quick.
///
/// A search's cost grows with its words: each is a list of entries to walk, and a word that
/// matches as a prefix is every word it starts ("s" would be a fifth of the language). So a
/// query has at most `maximumLength` characters and `maximumTerms` different words; a word
/// said twice counts once (every word must be in an entry anyway); and a word of one or two
/// letters matches only itself, not every word it starts.
public struct SearchQuery: Sendable, Equatable {
    /// Characters (Unicode scalars, so a pile of combining marks counts each one).
    public static let maximumLength = 256
    /// Different words, after repeats are dropped.
    public static let maximumTerms = 16

    /// The words as typed, for snippets.
    public let text: String
    /// What the index is asked for: each different word once, in the order typed.
    public let terms: [SearchTerm]

    public init(_ text: String) throws(SearchError) {
        let length = text.unicodeScalars.count
        guard length <= Self.maximumLength else { throw .tooLong(length: length) }
        var seen = Set<SearchTerm>()
        let terms = SearchText.terms(of: text).map(Self.boundingPrefix).filter { seen.insert($0).inserted }
        guard terms.count <= Self.maximumTerms else { throw .tooManyWords(count: terms.count) }
        self.text = text
        self.terms = terms
    }

    /// Words shorter than this are themselves, not the start of every longer word.
    public static let shortestPrefix = 3

    /// "a" as a prefix walks the lists of every word beginning with a, and "th" those of the,
    /// that, then, there…: in FTS5 on 20,000 of the benchmark's entries, 16 common two-letter
    /// prefixes took 351 ms, 16 three-letter ones 73 ms. A single Korean syllable stays a prefix: its tokens are
    /// the two-syllable pairs it starts (and itself at the end of a word).
    private static func boundingPrefix(_ term: SearchTerm) -> SearchTerm {
        guard term.isPrefix, term.tokens.count == 1, let token = term.tokens.first,
              token.unicodeScalars.count < shortestPrefix, token.first.map({ !$0.isCJK }) ?? false
        else { return term }
        return SearchTerm(tokens: term.tokens, isPrefix: false)
    }
}

/// Why a search was not run, in words a writer can act on.
public enum SearchError: Error, Equatable, Sendable {
    case tooLong(length: Int)
    case tooManyWords(count: Int)
}

extension SearchError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .tooLong(let length):
            "The search is too long: it may have at most \(SearchQuery.maximumLength) characters, and this one has \(length.formatted()). Search for fewer words."
        case .tooManyWords(let count):
            "The search has too many words: it may have at most \(SearchQuery.maximumTerms) different words, and this one has \(count). Leave out the shorter ones."
        }
    }

    public var errorDescription: String? { description }
}
