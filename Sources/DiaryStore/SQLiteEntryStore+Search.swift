import DiaryCore
import Foundation
import GRDB

extension SQLiteEntryStore {
    public func search(_ query: String, limit: Int) async throws -> [SearchHit] {
        guard let match = Self.matchExpression(for: query) else { return [] }
        return try await read { [owner] db in
            // First the best `limit` rows by rank, touching no body; then only their text.
            // A title match counts more than a body match.
            let sequences = try Int64.fetchAll(
                db,
                sql: """
                    SELECT e.seq FROM (
                        SELECT rowid, bm25(entry_search, 4.0, 1.0) AS score
                        FROM entry_search WHERE entry_search MATCH ?
                    ) AS m JOIN entry AS e ON e.seq = m.rowid
                    WHERE e.owner_id = ? AND e.deleted_at IS NULL
                    ORDER BY m.score, e.created_at DESC LIMIT ?
                    """,
                arguments: [match, owner.rawValue, limit])
            guard !sequences.isEmpty else { return [] }
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT \(EntryRow.columns) FROM entry WHERE seq IN (\(databaseQuestionMarks(count: sequences.count)))",
                arguments: StatementArguments(sequences))
            let bySequence = Dictionary(uniqueKeysWithValues: rows.map { row in (row["seq"] as Int64, EntryRow(row).entry) })
            return sequences.compactMap { sequence in
                bySequence[sequence].map { SearchHit(entry: $0.summary, snippet: Snippet.of($0.body, matching: query)) }
            }
        }
    }

    /// The FTS5 query for a writer's words: every term must be there; a Latin word may be the
    /// start of a longer one; a Korean run is a phrase of its two-syllable tokens.
    /// `nil` when the query has no letters or digits to look for.
    static func matchExpression(for query: String) -> String? {
        let terms = SearchText.terms(of: query)
        guard !terms.isEmpty else { return nil }
        return terms.map { term in
            // Tokens hold only letters and digits, so quoting cannot be broken out of.
            let phrase = "\"" + term.tokens.joined(separator: " ") + "\""
            return term.isPrefix ? phrase + " *" : phrase
        }.joined(separator: " ")
    }
}
