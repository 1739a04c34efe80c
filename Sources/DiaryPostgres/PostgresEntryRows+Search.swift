import DiaryCore
import Foundation
import Logging
import PostgresNIO

extension PostgresEntryRows {
    /// The GIN index finds the entries holding every term (`tsquery`); for each, only the
    /// positions of the query's own words come back (`unnest` of its `tsvector`, filtered), and
    /// `SearchScore` ranks them here as SQLite's `diary_rank` does: the same rule, the same order.
    /// Then only the best `limit` entries' text is read.
    ///
    /// `owner_id + 0` keeps the planner on the GIN index: with statistics that are behind (a
    /// diary just copied, or adopted by its first account: every row's owner changed), it took
    /// the owner's order index for a handful of rows and read all 100,000 words (0.5 s a search).
    func search(_ query: SearchQuery, limit: Int) async throws -> [Entry] {
        guard limit > 0, let terms = SearchVector.terms(of: query) else { return [] }
        let exact = Array(Set(terms.flatMap(\.words)))
        let prefixes = terms.filter(\.isPrefix).compactMap(\.words.last).map { Self.likePattern($0) }
        var binds = PostgresBindings()
        binds.append(owner.rawValue)
        binds.append(SearchVector.query(terms))
        binds.append(exact)
        binds.append(prefixes)
        let matches = PostgresQuery(unsafeSQL: """
            SELECT e.seq, e.created_at, e.title_words, e.body_words, w.lexeme, w.positions, w.weights
            FROM entry AS e, unnest(e.words) AS w
            WHERE e.owner_id + 0 = $1 AND e.deleted_at IS NULL AND e.words @@ $2::tsquery
              AND (w.lexeme = ANY($3::text[]) OR w.lexeme LIKE ANY($4::text[]))
            """, binds: binds)
        return try await database.transaction { [logger] connection in
            // A search never holds a connection long, whatever it is asked.
            try await connection.query("SET LOCAL statement_timeout = '20s'", logger: logger)
            var found: [Int64: Found] = [:]
            let rows = try await connection.query(matches, logger: logger)
            for try await (sequence, created, titleWords, bodyWords, lexeme, positions, weights)
                in rows.decode((Int64, Int64, Int32, Int32, String, [Int16]?, [String]?).self) {
                found[sequence, default: Found(created: created, titleWords: Int(titleWords), bodyWords: Int(bodyWords))]
                    .words.append((lexeme, zip(positions ?? [], weights ?? []).map { (Int($0), $1 == "A") }))
            }
            try Task.checkCancellation()
            let ranked = found.map { (sequence: $0.key, created: $0.value.created, score: $0.value.score(terms)) }
                .sorted { ($0.score, $0.created, $0.sequence) > ($1.score, $1.created, $1.sequence) }
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

    /// `word%` for LIKE; a word holds only letters and digits, but `%`, `_` and `\` are escaped all the same.
    private static func likePattern(_ word: String) -> String {
        var pattern = ""
        for character in word {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }
}

/// An entry that holds every term, with the positions of the query's words in it.
private struct Found {
    var created: Int64
    var titleWords: Int
    var bodyWords: Int
    /// (lexeme, [(position, in the title)]) for each of the query's words the entry holds.
    var words: [(String, [(Int, Bool)])] = []

    /// `SearchScore` from how many times each term is in the title and in the body: a word at
    /// each of its positions; a phrase where its words stand one after another.
    func score(_ terms: [SearchVector.Term]) -> Double {
        var titleCounts: [Int] = [], bodyCounts: [Int] = []
        for term in terms {
            // The positions of each of the term's words (a prefix's: of every word it starts).
            let places = term.words.indices.map { index in
                words.filter { term.matches($0.0, at: index) }.flatMap(\.1)
            }
            var title = 0, body = 0
            if term.words.count == 1 {
                for (_, inTitle) in places[0] { if inTitle { title += 1 } else { body += 1 } }
                // A word whose positions did not fit (past 16,383) still counts once.
                if places[0].isEmpty { body = 1 }
            } else {
                let later = places.dropFirst().map { Set($0.map(\.0)) }
                for (start, inTitle) in places[0] where later.enumerated().allSatisfy({ $1.contains(start + $0 + 1) }) {
                    if inTitle { title += 1 } else { body += 1 }
                }
            }
            titleCounts.append(title)
            bodyCounts.append(body)
        }
        return SearchScore.of(titleCounts: titleCounts, bodyCounts: bodyCounts, titleLength: titleWords, bodyLength: bodyWords)
    }
}
