import DiaryCore
@testable import DiaryStore
import Foundation
import GRDB
import Testing

@Suite("Any search gets results or says what is wrong with it")
struct SearchTotalityTests {
    /// Text an attacker would try: FTS5's own syntax, quotes, NUL, lone combining marks, and
    /// characters from every plane and category.
    static let pieces = [
        "AND", "OR", "NOT", "NEAR", "NEAR(", "NEAR(a b, 2)", "title:", "body:", "{title body}:", "-title:", "^", "*",
        "(", ")", "\"", "\"\"", "'", "-", "+", ":", ",", ".", "{", "}", "\0", "\u{301}", "\u{345}", "\u{200D}", "\u{FEFF}",
        "\u{FFFD}", "👩‍👩‍👧", "🇰🇷", "a", "rain", "일기", "떡볶이", "é", "ß", "İ", "ﬁ", "١٢٣", "Ⅻ", "\u{10FFFF}", " ", "\t", "\n",
    ]

    /// A seeded random string: pieces, and scalars from anywhere in Unicode (surrogates aside).
    static func randomQuery(using random: inout SplitMix64, maxScalars: Int) -> String {
        var text = ""
        while text.unicodeScalars.count < maxScalars {
            switch random.next() % 4 {
            case 0, 1:
                text += pieces[Int(random.next() % UInt64(pieces.count))]
            case 2:
                text += " "
            default:
                let value = UInt32(random.next() % 0x11_0000)
                if let scalar = Unicode.Scalar(value) { text.unicodeScalars.append(scalar) }
            }
            if random.next() % 8 == 0 { break }
        }
        return text
    }

    @Test("Every query within the limits makes an FTS5 expression that SQLite accepts, and finds what it finds")
    func everyExpressionIsValid() async throws {
        let path = try TemporaryFolder.make().appendingPathComponent("diary.sqlite").path
        let store = try SQLiteStorage.diary(path: path)
        for (title, body) in [("Rain", "rain AND walk NEAR the river"), ("일기", "오늘 일기를 썼다"), ("Café", "naïve ﬁsh 👩‍👩‍👧 ١٢٣")] {
            _ = try await store.create(try EntryText(title: title, body: body), id: UUID()).entry
        }
        let index = try DatabaseQueue(path: path)
        var random = SplitMix64(seed: 14)
        for _ in 0..<3_000 {
            let text = Self.randomQuery(using: &random, maxScalars: 120)
            let query: SearchQuery
            do { query = try SearchQuery(text) } catch { continue }  // too many words: checked below
            guard let match = SQLiteEntryRows.matchExpression(for: query) else { continue }
            do {
                _ = try await index.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM entry_search WHERE entry_search MATCH ?", arguments: [match]) }
            } catch {
                Issue.record("FTS5 refused \(match.debugDescription), made from \(text.debugDescription): \(error)")
                return
            }
        }
    }

    @Test("A search through the store answers with entries or a SearchError, whatever the query")
    func storeSearchIsTotal() async throws {
        let store = try await StoreBackend.sqlite.makeStore()
        _ = try await store.create(try EntryText(title: "Rain", body: "rain AND walk \"NEAR\" title:river"), id: UUID()).entry
        var random = SplitMix64(seed: 1_400)
        for _ in 0..<300 {
            let text = Self.randomQuery(using: &random, maxScalars: 400)
            do {
                _ = try await store.search(text, limit: 5)
            } catch let error as SearchError {
                // Only a query past a limit is refused, and the error says which.
                switch error {
                case .tooLong(let length): #expect(length > SearchQuery.maximumLength && length == text.unicodeScalars.count)
                case .tooManyWords(let count): #expect(count > SearchQuery.maximumTerms)
                }
            }
        }
        #expect(try await store.search("rain AND walk", limit: 5).count == 1)
        #expect(try await store.search("title:river", limit: 5).count == 1)
        #expect(try await store.search("\"NEAR\" -rain", limit: 5).count == 1)
    }

    @Test("A query of more than 256 characters, or 10,000, is refused with a message that says the limit")
    func longQueriesAreRefused() async throws {
        let store = try await StoreBackend.sqlite.makeStore()
        await #expect(throws: SearchError.tooLong(length: 10_000)) { try await store.search(String(repeating: "a", count: 10_000), limit: 5) }
        await #expect(throws: SearchError.tooLong(length: 299)) { try await store.search(Array(repeating: "a", count: 150).joined(separator: " "), limit: 5) }
        #expect(SearchError.tooLong(length: 10_000).description.contains("at most 256 characters"))
        // A letter carrying a pile of combining marks is one character on screen, but every mark counts.
        await #expect(throws: SearchError.tooLong(length: 301)) { try await store.search("a" + String(repeating: "\u{301}", count: 300), limit: 5) }
        // Right at the limit is fine.
        _ = try await store.search(String(repeating: "a", count: SearchQuery.maximumLength), limit: 5)
    }
}

@Suite("A search's cost is bounded")
struct SearchCostTests {
    @Test("A word said again and again is looked for once, and a word of one or two letters is not a prefix")
    func repeatedAndShortWords() throws {
        let query = try SearchQuery(Array(repeating: "a", count: 120).joined(separator: " "))
        #expect(query.terms == [SearchTerm(tokens: ["a"], isPrefix: false)])
        #expect(try SearchQuery("seren 일 a th the").terms == [
            SearchTerm(tokens: ["seren"], isPrefix: true), SearchTerm(tokens: ["일"], isPrefix: true), SearchTerm(tokens: ["a"], isPrefix: false),
            SearchTerm(tokens: ["th"], isPrefix: false), SearchTerm(tokens: ["the"], isPrefix: true),
        ])
        #expect(throws: SearchError.tooManyWords(count: 17)) { try SearchQuery((0..<17).map { "w\($0)" }.joined(separator: " ")) }
    }

    @Test("Snippets of many 1 MiB bodies for a query of many words take a moment, not minutes")
    func snippetsOfHugeBodies() throws {
        // 1 MiB of one letter and spaces, and the match far beyond the part looked through.
        let body = String(repeating: "a ", count: 524_000) + "serenity"
        let queries = [
            Array(repeating: "z", count: 128).joined(separator: " "),  // a word the body lacks, again and again
            (0..<16).map { String(repeating: "a", count: $0 + 2) }.joined(separator: " ") + " serenity",
        ]
        let clock = ContinuousClock()
        let took = clock.measure {
            for number in 0..<20 { #expect(Snippet.of(body, matching: queries[number % 2]).hasPrefix("a a a")) }
        }
        // Before the window, the whole body was lowercased and searched once a word: in a debug
        // build 2.7 s a snippet for the z's, 0.5 s for the other, 32 s for these twenty.
        #expect(took < .seconds(10))
    }
}

@Suite("One diary's search order never depends on another diary")
struct SearchRankingPrivacyTests {
    static let days: [(title: String, body: String)] = [
        ("Monday", "rain rain rain walk, then tea by the window"),
        ("Tuesday", "rain walk walk walk, then tea by the window"),
        ("Wednesday", "a long walk along the river in the rain, the whole afternoon until the light went"),
        ("Rain", "walk"),
        ("Thursday", "tea"),
    ]

    func orders(_ store: Diary, _ queries: [String]) async throws -> [[String]] {
        var orders: [[String]] = []
        for query in queries { orders.append(try await store.search(query, limit: 20).map(\.entry.title)) }
        return orders
    }

    @Test("Alice's results keep their order however many entries Bob adds with the same words")
    func anotherDiaryChangesNothing() async throws {
        let database = try SQLiteDatabase(path: TemporaryFolder.make().appendingPathComponent("diary.sqlite").path)
        let alice = database.diary(of: UserID(rawValue: 1))
        let bob = database.diary(of: UserID(rawValue: 2))
        for day in Self.days {
            _ = try await alice.create(try EntryText(title: day.title, body: day.body), id: UUID()).entry
            _ = try await bob.create(try EntryText(title: day.title, body: day.body), id: UUID()).entry
        }
        let queries = ["rain walk", "walk", "rain", "tea", "walk tea", "rain wal"]
        let before = try await orders(alice, queries)
        #expect(before[0].first == "Rain")  // a title match first
        // Bob writes "walk" and long entries: the index's counts and average length move.
        let long = String(repeating: "evening river window light ", count: 60)
        let bobs = (0..<200).map { n in Entry(title: "Bob \(n)", body: n % 2 == 0 ? "walk walk \(n)" : long, createdAt: Date(timeIntervalSince1970: Double(n) * 3_600)) }
        _ = try await bob.importEntries(bobs)
        #expect(try await orders(alice, queries) == before)
    }
}

/// A small seeded generator, so a failing random query can be found again.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
