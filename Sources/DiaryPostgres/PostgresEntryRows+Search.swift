import DiaryCore
import Foundation
import Logging
import PostgresNIO

extension PostgresEntryRows {
    /// The GIN index finds the entries holding every term (`tsquery`); for each, how many times
    /// each term stands in its title and in its whole text comes back, counted by PostgreSQL
    /// itself in the entry's `tsvector` (`ts_rank_cd` with one term and no normalization adds up
    /// the weights of the places the term stands: 1 for each, or 1 for the title's alone; it
    /// looks only the query's words up in the vector, where unnesting all of it took 0.1 ms an
    /// entry), and `SearchScore` ranks them here as SQLite's `diary_rank` does: the same rule,
    /// the same order. Then only the best `limit` entries' text is read.
    ///
    /// `owner_id + 0` keeps the planner on the GIN index: with statistics that are behind (a
    /// diary just copied, or adopted by its first account: every row's owner changed), it took
    /// the owner's order index for a handful of rows and read all 100,000 words (0.5 s a search).
    ///
    /// The filter narrows what the words found: the entry's own tag keys hold every tag asked
    /// for, its star and moment are on the row.
    func search(_ query: SearchQuery, limit: Int, filter: EntryFilter) async throws -> [Entry] {
        guard limit > 0, let terms = SearchVector.terms(of: query) else { return [] }
        var binds = PostgresBindings()
        binds.append(owner.rawValue)
        binds.append(SearchVector.query(terms))
        var inTitle: [String] = [], inAll: [String] = []
        for term in terms {
            binds.append(SearchVector.query([term]))
            inTitle.append("ts_rank_cd('{0,0,0,1}', e.words, $\(binds.count)::tsquery, 0)")
            inAll.append("ts_rank_cd('{1,1,1,1}', e.words, $\(binds.count)::tsquery, 0)")
        }
        var narrowing = filter.starredOnly ? " AND e.starred" : ""
        if !filter.isEmpty {
            binds.append(filter.from)
            binds.append(filter.until)
            narrowing += " AND e.created_at >= $\(binds.count - 1) AND e.created_at < $\(binds.count)"
        }
        if !filter.tagKeys.isEmpty {
            binds.append(filter.tagKeys)
            narrowing += " AND e.tag_keys @> $\(binds.count)::text[]"
        }
        let matches = PostgresQuery(unsafeSQL: """
            SELECT e.seq, e.created_at, e.title_words, e.body_words,
                ARRAY[\(inTitle.joined(separator: ", "))]::real[], ARRAY[\(inAll.joined(separator: ", "))]::real[]
            FROM entry AS e
            WHERE e.owner_id + 0 = $1 AND e.deleted_at IS NULL AND e.words @@ $2::tsquery\(narrowing)
            """, binds: binds)
        return try await database.withTransaction { [logger] connection in
            // A search never holds a connection long, whatever it is asked.
            try await connection.query("SET LOCAL statement_timeout = '20s'", logger: logger)
            var found: [(sequence: Int64, created: Int64, score: Double)] = []
            let rows = try await connection.query(matches, logger: logger)
            for try await (sequence, created, titleWords, bodyWords, titles, alls)
                in rows.decode((Int64, Int64, Int32, Int32, [Float], [Float]).self) {
                var titleCounts: [Int] = [], bodyCounts: [Int] = []
                for (index, term) in terms.enumerated() {
                    let title = Int(titles[index].rounded()), all = Int(alls[index].rounded())
                    // A word whose places did not fit (past 16,383) still counts once.
                    let body = all == 0 && term.words.count == 1 ? 1 : all - title
                    titleCounts.append(title)
                    bodyCounts.append(body)
                }
                let score = SearchScore.of(titleCounts: titleCounts, bodyCounts: bodyCounts,
                                           titleLength: Int(titleWords), bodyLength: Int(bodyWords))
                found.append((sequence, created, score))
            }
            try Task.checkCancellation()
            let ranked = found.sorted { ($0.score, $0.created, $0.sequence) > ($1.score, $1.created, $1.sequence) }
                .prefix(limit).map(\.sequence)
            guard !ranked.isEmpty else { return [] }
            var bySequence: [Int64: Entry] = [:]
            let chosen = Array(ranked)
            for try await row in try await connection.query(
                "SELECT \(unescaped: PostgresEntryRow.columns) FROM entry WHERE seq = ANY(\(chosen))", logger: logger) {
                let found = try PostgresEntryRow(row)
                bySequence[found.sequence] = found.entry
            }
            return ranked.compactMap { bySequence[$0] }
        }
    }
}
