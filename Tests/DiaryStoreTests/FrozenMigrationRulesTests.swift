@testable import DiaryPostgres
@testable import DiaryStore
import Testing

/// What a migration computes in Swift stays what it was: its rule is a copy frozen with it, so
/// a change to the app's rule (DiaryCore's `WordCount`) never changes what an upgrade writes.
/// The numbers are what the shipped migrations write; a change that moves one is
/// an edit of a shipped migration.
@Suite("Migrations' frozen rules")
struct FrozenMigrationRulesTests {
    static let counted: [(text: String, words: Int)] = [
        ("Hello, world", 2),
        ("오늘은 날씨가 좋다", 3),
        ("今日は晴れ", 5),  // each Chinese character and kana a word
        ("ｶﾀｶﾅ", 4),  // half-width katakana too
        ("ア・イ", 2),  // a middle dot is a mark, not a word
        ("— ... !", 0),  // marks alone are no word
        ("2026 년", 2),  // digits make a word
        ("a\u{0}b  c\n", 2),  // a NUL is no space
    ]

    @Test("The words an upgrade counts (SQLite's v8-word-counts, PostgreSQL's v4-word-counts)", arguments: counted)
    func wordCounts(text: String, words: Int) {
        #expect(SQLiteMigrations.WordCountV8.of(text) == words)
        #expect(PostgresMigrations.WordCountV4.of(text) == words)
    }

    @Test("An entry's words are its title's and its body's")
    func titleAndBody() {
        #expect(SQLiteMigrations.WordCountV8.of(title: "오늘의 일기", body: "비가 왔다. 今日") == 6)
        #expect(PostgresMigrations.WordCountV4.of(title: "오늘의 일기", body: "비가 왔다. 今日") == 6)
    }
}
