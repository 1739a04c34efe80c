import DiaryCore
import Foundation
import GRDB

extension SQLiteEntryRows {
    /// Runs on GRDB's pool of readers, never on the writer or `QuickReads`' connections, so a
    /// long search holds up no save and no page of the list. A cancelled task interrupts the
    /// query (`sqlite3_interrupt`, through GRDB) and throws `CancellationError`.
    public func search(_ query: SearchQuery, limit: Int, filter: EntryFilter) async throws -> [Entry] {
        guard let match = Self.matchExpression(for: query) else { return [] }
        // The filter narrows what the words found: each match is kept if it has every tag (one
        // look in the tag index by its `seq`), its star and a moment in the span.
        var narrowing = filter.starredOnly ? " AND e.starred = 1" : ""
        var arguments: [(any DatabaseValueConvertible)?] = [match, owner.rawValue]
        if !filter.isEmpty {
            narrowing += " AND e.created_at >= ? AND e.created_at < ?"
            arguments += [filter.from, filter.until]
        }
        for key in filter.tagKeys {
            narrowing += " AND EXISTS (SELECT 1 FROM entry_tag o WHERE o.seq = e.seq AND o.tag_key = ?)"
            arguments.append(key)
        }
        arguments.append(max(0, limit))
        let bound = StatementArguments(arguments)
        let sql = """
            SELECT e.seq FROM entry_search JOIN entry AS e ON e.seq = entry_search.rowid
            WHERE entry_search MATCH ? AND e.owner_id = ? AND e.deleted_at IS NULL\(narrowing)
            ORDER BY \(SearchRanking.functionName)(entry_search) DESC, e.created_at DESC, e.seq DESC
            LIMIT ?
            """
        return try await read { db in
            // First the best `limit` rows of this diary, touching no body; then only their text.
            let sequences = try Int64.fetchAll(db, sql: sql, arguments: bound)
            guard !sequences.isEmpty else { return [Entry]() }
            // Read from a cursor: a copied row would have lost what follows a NUL in the text.
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT \(SQLiteEntryRow.columns) FROM entry WHERE seq IN (\(databaseQuestionMarks(count: sequences.count)))",
                arguments: StatementArguments(sequences))
            var bySequence: [Int64: Entry] = [:]
            while let row = try rows.next() {
                let found = SQLiteEntryRow(row)
                bySequence[found.sequence] = found.entry
            }
            return sequences.compactMap { bySequence[$0] }
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
