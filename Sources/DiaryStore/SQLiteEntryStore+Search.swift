import DiaryCore
import Foundation
import GRDB

extension SQLiteEntryStore {
    /// Runs on GRDB's pool of readers, never on the writer or `QuickReads`' connections, so a
    /// long search holds up no save and no page of the list. A cancelled task interrupts the
    /// query (`sqlite3_interrupt`, through GRDB) and throws `CancellationError`.
    public func search(_ query: String, limit: Int) async throws -> [SearchHit] {
        let query = try SearchQuery(query)
        guard let match = Self.matchExpression(for: query) else { return [] }
        let limit = max(0, limit)
        let entries = try await read { [owner] db in
            // First the best `limit` rows of this diary, touching no body; then only their text.
            let sequences = try Int64.fetchAll(
                db,
                sql: """
                    SELECT e.seq FROM entry_search JOIN entry AS e ON e.seq = entry_search.rowid
                    WHERE entry_search MATCH ? AND e.owner_id = ? AND e.deleted_at IS NULL
                    ORDER BY \(SearchRanking.functionName)(entry_search) DESC, e.created_at DESC, e.seq DESC
                    LIMIT ?
                    """,
                arguments: [match, owner.rawValue, limit])
            guard !sequences.isEmpty else { return [Entry]() }
            // Read from a cursor: a copied row would have lost what follows a NUL in the text.
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT \(EntryRow.columns) FROM entry WHERE seq IN (\(databaseQuestionMarks(count: sequences.count)))",
                arguments: StatementArguments(sequences))
            var bySequence: [Int64: Entry] = [:]
            while let row = try rows.next() {
                let found = EntryRow(row)
                bySequence[found.sequence] = found.entry
            }
            return sequences.compactMap { bySequence[$0] }
        }
        // Each snippet reads a bounded window of its body; a cancelled search stops between them.
        return try entries.map { entry in
            try Task.checkCancellation()
            return SearchHit(entry: entry.summary, snippet: Snippet.of(entry.body, matching: query.text))
        }
    }

    /// The FTS5 query for a writer's words: every term must be there; a word may be the start
    /// of a longer one (see `SearchQuery`); a Korean run is a phrase of its two-syllable tokens.
    /// `nil` when the query has no letters or digits to look for.
    static func matchExpression(for query: SearchQuery) -> String? {
        guard !query.terms.isEmpty else { return nil }
        return query.terms.map { term in
            // Tokens hold only letters and digits, so quoting cannot be broken out of; a quote
            // is doubled all the same, as FTS5 reads it, should a token ever hold one.
            let phrase = "\"" + term.tokens.joined(separator: " ").replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return term.isPrefix ? phrase + " *" : phrase
        }.joined(separator: " ")
    }
}
