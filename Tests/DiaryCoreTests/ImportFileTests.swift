import DiaryCore
import Foundation
import Testing

@Suite("Reading files to import")
struct ImportFileTests {
    /// The original app's sample, kept in the repository's test fixtures.
    static let sampleURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/seed-sample.json")

    @Test("The original app's sample gives 15 entries, duplicates included, all of 22 December 2020")
    func seedSample() throws {
        let entries = try ImportFile.entries(from: try Data(contentsOf: Self.sampleURL))
        #expect(entries.count == 15)
        #expect(Set(entries.map(\.id)).count == 15)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for entry in entries {
            let day = calendar.dateComponents([.year, .month, .day], from: entry.createdAt)
            #expect(day == DateComponents(year: 2020, month: 12, day: 22))
        }
        #expect(entries[0].title == "똘기떵이호치새초미자축인묘")
        #expect(entries[0].body.hasPrefix("A wonderful serenity"))
    }

    @Test("A malformed record names the record and what is wrong with it")
    func badRecordIsNamed() {
        let json = #"[{"title": "ok", "body": "", "created_at": 1608651333}, {"title": "x", "created_at": "yesterday"}]"#
        #expect(throws: ImportError.badRecord(2, "\"created_at\" must be a number of seconds since 1970, not \"yesterday\"")) {
            try ImportFile.entries(from: Data(json.utf8))
        }
    }

    @Test("A blank record is refused by number")
    func blankRecord() {
        let json = #"[{"title": " ", "body": "", "created_at": 1608651333}]"#
        #expect(throws: ImportError.self) { try ImportFile.entries(from: Data(json.utf8)) }
        do {
            _ = try ImportFile.entries(from: Data(json.utf8))
        } catch {
            #expect(error.description.hasPrefix("Record 1 cannot be imported: The entry is blank"))
        }
    }

    @Test("A file that is not JSON says so")
    func notJSON() {
        #expect(throws: ImportError.self) { try ImportFile.entries(from: Data("title,body\n".utf8)) }
    }

    @Test("Diary's own export is read back exactly")
    func ownFormat() throws {
        let entry = Entry(title: "Rain", body: "All day.", createdAt: Date(millisecondsSince1970: 1_608_651_333_123),
                          updatedAt: Date(millisecondsSince1970: 1_608_651_999_000), version: 3,
                          location: Coordinates(latitude: 51.51, longitude: -0.13),
                          weather: Weather(provider: "openweather", condition: .drizzle, description: "light drizzle", isDay: true, temperatureCelsius: 11.2))
        let file = Data((ExportFile.header).utf8) + (try ExportFile.line(for: entry)) + Data(ExportFile.footer.utf8)
        #expect(try ImportFile.entries(from: file) == [entry])
    }
}

@Suite("The fast JSON writer")
struct EntryJSONWriterTests {
    static let weather = Weather(provider: "open-meteo", condition: .rain, description: "light \"rain\"", isDay: false, temperatureCelsius: 11.0)

    @Test("An entry comes out exactly as JSONEncoder writes it, for awkward text, dates, places and weather", arguments: [
        Entry(title: "Quotes \" and \\ and /slashes/", body: "tab\tnewline\nreturn\r bell\u{07} 한글 ✓ 😀",
              createdAt: Date(millisecondsSince1970: 1_608_651_333_123), updatedAt: Date(millisecondsSince1970: 1_700_000_000_999), version: 7),
        Entry(title: "Before 1970", body: "", createdAt: Date(millisecondsSince1970: -86_400_001), deletedAt: Date(millisecondsSince1970: 0)),
        Entry(title: "Leap day", body: "x", createdAt: Date(millisecondsSince1970: 951_782_400_000)),
        Entry(title: "Seoul", body: "비", createdAt: Date(millisecondsSince1970: 1_608_651_333_000),
              location: Coordinates(latitude: 37.5665, longitude: -126.978), weather: weather),
        Entry(title: "No temperature", body: "", createdAt: Date(millisecondsSince1970: 1),
              weather: Weather(provider: "openweather", condition: .clear, description: "", isDay: true, temperatureCelsius: nil)),
    ])
    func sameAsEncoder(entry: Entry) throws {
        var fast: [UInt8] = []
        EntryJSONWriter().append(entry, to: &fast)
        #expect(String(decoding: fast, as: UTF8.self) == String(decoding: try ExportFile.line(for: entry), as: UTF8.self))
    }

    @Test("Escapes land in the right place wherever they fall in a long run of ordinary text")
    func escapesAnywhere() throws {
        let pieces = ["a", "bcdefgh", "\"", "\\", "\n", "\u{01}", "\u{1F}", " ", "~", "한", "😀", "/", "é", "\t"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0...30, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let entry = Entry(title: "t", body: text, createdAt: Date(millisecondsSince1970: 0))
            var fast: [UInt8] = []
            EntryJSONWriter().append(entry, to: &fast)
            #expect(String(decoding: fast, as: UTF8.self) == String(decoding: try ExportFile.line(for: entry), as: UTF8.self))
        }
    }

    @Test("A page of the list comes out as JSONEncoder writes it, with and without a next cursor")
    func pageSameAsEncoder() throws {
        struct Page: Encodable {
            var entries: [EntrySummary]
            var nextCursor: String?
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(entries, forKey: .entries)
                try container.encode(nextCursor, forKey: .nextCursor)
            }
            enum CodingKeys: String, CodingKey { case entries, nextCursor }
        }
        let rows = [
            EntrySummary(id: UUID(), title: "Tab\there", excerpt: "첫 줄 \"quoted\"", createdAt: Date(millisecondsSince1970: 1_608_651_333_123),
                         updatedAt: Date(millisecondsSince1970: 1_608_651_334_000), version: 3, deletedAt: nil, weather: Self.weather),
            EntrySummary(id: UUID(), title: "Trashed", excerpt: "", createdAt: Date(millisecondsSince1970: 0),
                         updatedAt: Date(millisecondsSince1970: 0), version: 1, deletedAt: Date(millisecondsSince1970: 5)),
        ]
        for cursor in [EntryCursor(time: 1_608_651_333_123, entry: UUID()), nil] {
            var fast: [UInt8] = []
            EntryJSONWriter().append(EntryPage(entries: rows, nextCursor: cursor), to: &fast)
            let expected = try DiaryJSON.encoder().encode(Page(entries: rows, nextCursor: cursor?.token))
            #expect(String(decoding: fast, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }
}
