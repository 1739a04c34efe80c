import DiaryCore
import Testing

@Suite("The rules every entry follows")
struct EntryTextTests {
    @Test("A blank title and body is never an entry")
    func blankIsRefused() {
        #expect(throws: EntryError.blank) { try EntryText(title: "", body: "") }
        #expect(throws: EntryError.blank) { try EntryText(title: "  \t", body: "\n \n") }
    }

    @Test("A title alone, or a body alone, is an entry")
    func eitherFieldIsEnough() throws {
        #expect(try EntryText(title: "Rain", body: "").title == "Rain")
        #expect(try EntryText(title: "", body: "It rained.").body == "It rained.")
    }

    @Test("A line break typed into the title moves what follows into the body")
    func titleIsOneLine() throws {
        let text = try EntryText(title: "Monday\nIt rained all day.", body: "")
        #expect(text.title == "Monday")
        #expect(text.body == "It rained all day.")
    }

    @Test("What a line break moves out of the title goes before the body already there")
    func movedTextComesFirst() throws {
        let text = try EntryText(title: "Monday\n\nMorning", body: "Evening")
        #expect(text.title == "Monday")
        #expect(text.body == "Morning\nEvening")
    }

    @Test("A title over 1,000 characters is refused with the limit in the message")
    func titleLimit() throws {
        _ = try EntryText(title: String(repeating: "가", count: 1_000), body: "")
        #expect(throws: EntryError.titleTooLong(limit: 1_000)) {
            try EntryText(title: String(repeating: "a", count: 1_001), body: "")
        }
        #expect(EntryError.titleTooLong(limit: 1_000).description.contains("1,000 characters"))
    }

    @Test("A body over 1 MiB of UTF-8 is refused with the limit in the message")
    func bodyLimit() throws {
        _ = try EntryText(title: "", body: String(repeating: "a", count: 1_048_576))
        #expect(throws: EntryError.bodyTooLong(limitBytes: 1_048_576)) {
            // 349,526 Hangul syllables are 1,048,578 bytes of UTF-8: counted in bytes, not characters.
            try EntryText(title: "", body: String(repeating: "가", count: 349_526))
        }
        #expect(EntryError.bodyTooLong(limitBytes: 1_048_576).description.contains("1 MiB"))
    }
}

@Suite("Coordinates")
struct CoordinatesTests {
    @Test("Coordinates are kept to two decimals, about 1 km")
    func rounded() throws {
        let place = try #require(Coordinates(latitude: 37.566_535, longitude: -126.977_969))
        #expect(place.latitude == 37.57)
        #expect(place.longitude == -126.98)
        #expect(Coordinates(text: "37.5665, 126.978") == Coordinates(latitude: 37.57, longitude: 126.98))
    }

    @Test("Places off the Earth are refused")
    func invalid() {
        #expect(Coordinates(latitude: 91, longitude: 0) == nil)
        #expect(Coordinates(latitude: 0, longitude: .nan) == nil)
        #expect(Coordinates(text: "north") == nil)
    }
}

@Suite("Excerpts")
struct ExcerptTests {
    @Test("The first line that is not blank, trimmed, at most 200 columns as on screen")
    func firstLine() {
        #expect(Excerpt.of("\n  \r\n   Rain all day.  \nSecond line") == "Rain all day.")
        #expect(Excerpt.of("") == "")
        #expect(Excerpt.of(" \n\t\n") == "")
        #expect(Excerpt.of("비가 왔다\n둘째 줄") == "비가 왔다")
        #expect(Excerpt.of(String(repeating: "a", count: 300)).count == 200)
        // A Hangul syllable is as wide as two letters: the same length on screen.
        #expect(Excerpt.of(String(repeating: "가", count: 300)) == String(repeating: "가", count: 100))
        #expect(Excerpt.of("a" + String(repeating: "가", count: 300)) == "a" + String(repeating: "가", count: 99))
        // Accents and emoji are never cut in two.
        let accented = String(repeating: "e\u{301}", count: 250)
        #expect(Excerpt.of(accented) == String(repeating: "e\u{301}", count: 200))
        #expect(Excerpt.of(String(repeating: "👩‍👩‍👧", count: 150)) == String(repeating: "👩‍👩‍👧", count: 100))
    }
}
