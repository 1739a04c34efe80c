import DiaryCore
import GRDB
import GRDBSQLite

/// How search results are ordered, from each entry's own words alone (`SearchScore`, the rule
/// both backends rank by).
///
/// FTS5's `bm25` weighs each word by how many rows of the whole index hold it, and its length
/// normalisation uses the average row of the whole index. Every diary of the file shares that
/// index, so the order of one person's results moved with what other people wrote: enough to
/// tell whether a word is common in diaries one cannot read. `diary_rank` reads only the row in
/// hand: how many of the query's words are in the title (a title match always ranks above a
/// body match), then BM25's term-frequency part for each word in the title and the body, with
/// fixed typical lengths instead of averages. Every word of a query must match, so BM25's word
/// weights would only have said which of the matched words is rarer; they are left out.
///
/// Registered on every connection (`register`), as an FTS5 auxiliary function in C, so it
/// runs inside the query as `bm25` did, without a row leaving SQLite.
enum SearchRanking {
    static let functionName = "diary_rank"

    /// Makes `diary_rank(entry_search)` available on `db`'s connection.
    static func register(_ db: Database) throws {
        let api = FTS5.api(db)
        let code = api.pointee.xCreateFunction(UnsafeMutablePointer(mutating: api), functionName, nil, rankRow, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register \(functionName)")
        }
    }
}

/// `diary_rank(entry_search)`: the score of the current row, higher is better.
private func rankRow(
    _ api: UnsafePointer<Fts5ExtensionApi>?, _ fts: OpaquePointer?, _ context: OpaquePointer?,
    _ argumentCount: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
) {
    guard let api = api?.pointee, let context else { return }
    let phrases = Int(api.xPhraseCount(fts))
    var instances: Int32 = 0
    guard phrases > 0, api.xInstCount(fts, &instances) == SQLITE_OK else {
        sqlite3_result_double(context, 0)
        return
    }
    var titleLength: Int32 = 0, bodyLength: Int32 = 0
    _ = api.xColumnSize(fts, 0, &titleLength)
    _ = api.xColumnSize(fts, 1, &bodyLength)
    // Counts per word: the title's in [0, phrases), the body's in [phrases, 2 × phrases).
    var counts = [Int](repeating: 0, count: 2 * phrases)
    var phrase: Int32 = 0, column: Int32 = 0, offset: Int32 = 0
    for index in 0..<instances where api.xInst(fts, index, &phrase, &column, &offset) == SQLITE_OK {
        guard phrase >= 0, Int(phrase) < phrases else { continue }
        counts[Int(phrase) + (column == 0 ? 0 : phrases)] += 1
    }
    let score = SearchScore.of(titleCounts: Array(counts[0..<phrases]), bodyCounts: Array(counts[phrases...]),
                               titleLength: Int(titleLength), bodyLength: Int(bodyLength))
    sqlite3_result_double(context, score)
}
