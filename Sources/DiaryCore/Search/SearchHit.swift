/// One entry found by a search, with the words around the match.
public struct SearchHit: Sendable, Equatable {
    public var entry: EntrySummary
    /// Plain text around the first match, with "…" where it was cut.
    public var snippet: String

    public init(entry: EntrySummary, snippet: String) {
        self.entry = entry
        self.snippet = snippet
    }
}
