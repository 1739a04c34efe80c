import DiaryCore
import Foundation
import GRDB
import Testing

/// `SearchWords` must cut and fold text exactly as SQLite's FTS5 index does (its `unicode61`
/// tokenizer, `remove_diacritics 2`): PostgreSQL keeps the words it makes, and both backends
/// must find the same entries. Compared here with what FTS5 itself stores (`fts5vocab`).
@Suite("Search words are cut as SQLite's index cuts them")
struct SearchWordsTests {
    /// The tokens FTS5 stores for `text`, in order.
    static func fts5Words(of texts: [String]) throws -> [[String]] {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE t USING fts5(body, content='', tokenize='unicode61 remove_diacritics 2');
                CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');
                """)
            for (index, text) in texts.enumerated() {
                // As the store gives it (`SearchIndexChanges`): bound as a C string, a NUL would end the text.
                let text = text.replacingOccurrences(of: "\u{0}", with: " ")
                try db.execute(sql: "INSERT INTO t (rowid, body) VALUES (?, ?)", arguments: [index + 1, text])
            }
            var words = [[String]](repeating: [], count: texts.count)
            for row in try Row.fetchAll(db, sql: "SELECT doc, term FROM v ORDER BY doc, offset") {
                words[Int(row["doc"] as Int64) - 1].append(row["term"])
            }
            return words
        }
    }

    static let edges = [
        "Straße STRASSE ẞ Café e\u{301}x ÅNGSTRÖM ǅ İstanbul naïve co-op don't 3.14",
        "①② x² ﬁne Ⅻ ｆｕｌｌ 😀emoji _under_ a·b ʼn ΣΑΣ ς µ ſ ϐ ϑ ǣ ǿ ǖ ḗ ǻ Ø ø Đ ł Œ æ þ ı",
        "हिन्दी ไทย άλφα йод Việt 가\u{301}나 a\u{200D}b c\u{AD}d ᄀ ㄱ ㅏ ٣ ゛ ー 々 〇 ㈜ K Å Ω",
        "일기를 썼다. 오늘은 비가 왔다! 일기장에 적었다 — 하루가 길었다…",
        "tab\tnew\nline\r\nNUL\u{0}after 日本語のテキスト 中文字符 ＡＢＣ１２３",
    ]

    @Test("Hand-picked letters, accents, cases, scripts and separators")
    func edgeCases() throws {
        let texts = Self.edges.map(SearchText.indexed)
        let expected = try Self.fts5Words(of: texts)
        for (text, words) in zip(texts, expected) {
            #expect(SearchWords.of(text) == words, "\(text)")
        }
    }

    @Test("The seed sample's entries, as the index sees them")
    func seedSample() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fixtures/seed-sample.json")
        let entries = try ImportFile.entries(from: Data(contentsOf: file))
        #expect(entries.count > 10)
        let texts = entries.flatMap { [SearchText.indexed($0.title), SearchText.indexed($0.body)] }
        let expected = try Self.fts5Words(of: texts)
        for (text, words) in zip(texts, expected) {
            #expect(SearchWords.of(text) == words, "\(text.prefix(80))")
        }
    }

    @Test("Random text from the scripts people write diaries in")
    func randomText() throws {
        // Letters (Latin with accents, Greek, Cyrillic, Hangul, kana, Han), digits, punctuation,
        // spaces, combining marks, emoji: drawn with a fixed seed, so a failure can be replayed.
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0x24F, 0x300...0x36F, 0x370...0x3FF, 0x400...0x4FF,
                                             0x1E00...0x1EFF, 0x2000...0x206F, 0x3000...0x30FF, 0xAC00...0xD7A3, 0x4E00...0x4FFF,
                                             0xFF00...0xFFEF, 0x1F300...0x1F64F]
        var generator = SplitMix64(seed: 20_261_124)
        var texts: [String] = []
        for _ in 0..<2_000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...60, using: &generator) {
                let range = ranges.randomElement(using: &generator)!
                if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) { scalars.append(scalar) }
            }
            texts.append(SearchText.indexed(String(scalars)))
        }
        let expected = try Self.fts5Words(of: texts)
        var differing: [(ours: [String], fts5: [String])] = []
        for (text, words) in zip(texts, expected) where SearchWords.of(text) != words {
            let ours = SearchWords.of(text)
            differing.append((ours.filter { !words.contains($0) }, words.filter { !ours.contains($0) }))
        }
        let shown = differing.prefix(8).map { pair in
            "ours \(pair.ours.map { $0.unicodeScalars.map { String($0.value, radix: 16) } }), FTS5's \(pair.fts5.map { $0.unicodeScalars.map { String($0.value, radix: 16) } })"
        }
        #expect(differing.isEmpty, "\(differing.count) texts cut differently: \(shown.joined(separator: "; "))")
    }
}
