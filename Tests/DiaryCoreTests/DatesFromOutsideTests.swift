import Foundation
import Testing

@testable import DiaryCore

/// Dates and numbers from files and requests: one range, exact inside it, refused outside it.
@Suite("Dates from outside")
struct DatesFromOutsideTests {
    @Test("ISO dates from year 1 to 9999 read back as the millisecond they were written", arguments: [
        EntryMoment.earliest, EntryMoment.latest, 0, -1, 1, 1_608_651_333_123, -12_219_292_800_001,  // the day before 1582's calendar reform
        951_782_400_000,  // 2000-02-29
        -62_104_060_800_000,  // 0001-12-31
    ])
    func roundTrip(milliseconds: Int64) throws {
        let date = Date(millisecondsSince1970: milliseconds)
        let text = ISODate.string(from: date)
        #expect(try ISODate.parse(text).get().millisecondsSince1970 == milliseconds, "\(text)")
    }

    @Test("Offsets name the same moment in every time zone")
    func offsets() throws {
        let utc = try ISODate.parse("2020-12-22T06:35:33.250Z").get()
        for text in ["2020-12-22T15:35:33.250+09:00", "2020-12-22T15:35:33.25+0900", "2020-12-21T20:35:33.250-10:00",
                     "2020-12-22T20:35:33.2500+14", "2020-12-22 06:35:33.250z"] {
            #expect(try ISODate.parse(text).get() == utc, "\(text)")
        }
        #expect(try ISODate.parse("2020-12-22T06:35Z").get().millisecondsSince1970 == 1_608_618_900_000)
    }

    @Test("Not dates, and dates outside years 1 to 9999, are refused and say which", arguments: [
        ("2020-02-30T00:00:00Z", MomentError.notADate), ("2021-02-29T00:00:00Z", .notADate), ("2020-12-22T24:00:00Z", .notADate),
        ("2020-12-22T23:60:00Z", .notADate), ("2020-12-22T23:59:60Z", .notADate), ("2020-12-22T15:35:33", .notADate),
        ("2020-12-22", .notADate), ("+2020-12-22T00:00:00Z", .notADate), ("-0001-01-01T00:00:00Z", .notADate),
        ("10000-01-01T00:00:00Z", .notADate), ("2020-12-22T00:00:00.Z", .notADate), ("2020-12-22T00:00:00+25:00", .notADate),
        ("", .notADate), ("٢٠٢٠-12-22T00:00:00Z", .notADate),
        ("0000-12-31T23:59:59.999Z", .outOfRange), ("0001-01-01T00:00:00+00:01", .outOfRange),
        ("9999-12-31T23:59:59.999-00:01", .outOfRange),
    ])
    func refused(text: String, error: MomentError) {
        #expect(throws: error) { try ISODate.parse(text).get() }
    }

    @Test("Unix seconds: inside the range exact, milliseconds and microseconds named as such, the rest out of range")
    func unixSeconds() throws {
        #expect(try EntryMoment.fromUnixSeconds(1_608_651_333).get().millisecondsSince1970 == 1_608_651_333_000)
        #expect(try EntryMoment.fromUnixSeconds(-0.0).get().millisecondsSince1970 == 0)
        #expect(try EntryMoment.fromUnixSeconds(-62_135_596_800).get().millisecondsSince1970 == EntryMoment.earliest)
        #expect(throws: MomentError.wrongUnit("milliseconds")) { try EntryMoment.fromUnixSeconds(1_608_651_333_000).get() }
        #expect(throws: MomentError.wrongUnit("microseconds")) { try EntryMoment.fromUnixSeconds(1_608_651_333_000_000).get() }
        for value in [1e300, -1e300, -62_135_596_801, 253_402_300_800 * 1e9 * 10, -1e15] {
            #expect(throws: MomentError.outOfRange) { try EntryMoment.fromUnixSeconds(value).get() }
        }
        // Just past the end of year 9999 is out of range, not "milliseconds".
        #expect(throws: MomentError.outOfRange) { try EntryMoment.fromUnixSeconds(253_402_300_799.9999).get() }
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(throws: MomentError.notANumber) { try EntryMoment.fromUnixSeconds(value).get() }
        }
    }

    @Test("Dates beyond what any file may hold never trap: they are written at the nearest end of the range")
    func totalArithmetic() {
        for seconds in [1e300, -1e300, .nan, .infinity, 9.3e15, -9.3e15] {
            let date = Date(timeIntervalSince1970: seconds)
            _ = date.millisecondsSince1970
            let text = ISODate.string(from: date)
            #expect(text.utf8.count == 24, "\(text)")
        }
        #expect(ISODate.string(from: Date(millisecondsSince1970: .min)) == "0001-01-01T00:00:00.000Z")
        #expect(ISODate.string(from: Date(millisecondsSince1970: .max)) == "9999-12-31T23:59:59.999Z")
    }

    @Test("A record's numbers: milliseconds, huge and odd values are refused with the field, the value and the range")
    func sampleNumbers() {
        let cases: [(String, String)] = [
            ("1608651333000", #""created_at" is 1608651333000, which looks like milliseconds since 1970, not seconds: divide it to seconds first"#),
            ("1e300", #""created_at" is 1e+300, outside the dates an entry may have, from 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (years 1 to 9999)"#),
            ("-99999999999", #""created_at" is -99999999999, outside the dates an entry may have"#),
            (#""NaN""#, #""created_at" must be a number of seconds since 1970, not "NaN""#),
            ("true", #""created_at" must be a number of seconds since 1970, not true"#),
            ("null", #""created_at" is missing"#),
        ]
        for (value, message) in cases {
            expectRefused(#"[{"title": "t", "body": "", "created_at": \#(value)}]"#, saying: message)
        }
    }

    /// `json` is refused, and the error names record 1 (and its id, when it has one) and says `message`.
    private func expectRefused(_ json: String, saying message: String, naming id: String? = nil) {
        do {
            _ = try ImportFile.entries(from: Data(json.utf8))
            Issue.record("imported: \(json)")
        } catch {
            let record = id.map { "Record 1 (id \($0))" } ?? "Record 1"
            #expect(error.description.hasPrefix(record + " cannot be imported: " + message), "\(error.description)")
        }
    }

    @Test("An export's version must be a whole number a diary can count on from, and its dates in range")
    func exportNumbers() {
        let id = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
        let cases: [(String, String)] = [
            (#""version": 9223372036854775807"#, #""version" must be a whole number from 1 to 9,007,199,254,740,991, not 9223372036854775807"#),
            (#""version": 1.5"#, #""version" must be a whole number from 1 to"#),
            (#""version": 0"#, #""version" must be a whole number from 1 to"#),
            (#""version": "2""#, #""version" must be a whole number from 1 to"#),
            (#""version": 1e300"#, #""version" must be a whole number from 1 to"#),
            (#""version": 1, "createdAt": "-0001-01-01T00:00:00.000Z""#, #""createdAt" must be a date such as"#),
            (#""version": 1, "createdAt": "0000-06-01T00:00:00.000Z""#, #""createdAt" is "0000-06-01T00:00:00.000Z", outside the dates an entry may have"#),
        ]
        for (fields, message) in cases {
            let created = fields.contains("createdAt") ? "" : #", "createdAt": "2020-12-22T15:35:33.000Z""#
            expectRefused(#"{"format": "diary-export", "version": 1, "entries": [{"id": "\#(id)", "title": "t", "body": "", \#(fields)\#(created)}]}"#,
                          saying: message, naming: id)
        }
    }
}

@Suite("Files from outside")
struct FilesFromOutsideTests {
    static func export(version: String, entries: [String]) -> Data {
        Data(#"{"format": "diary-export", "version": \#(version), "entries": [\#(entries.joined(separator: ","))]}"#.utf8)
    }

    static func entry(_ id: String, _ title: String) -> String {
        #"{"id": "\#(id)", "title": "\#(title)", "body": "", "createdAt": "2020-12-22T15:35:33.000Z"}"#
    }

    @Test("Two records with one id refuse the whole file, naming both")
    func duplicateIDs() {
        let id = "22222222-2222-4222-8222-222222222222"
        let file = Self.export(version: "1", entries: [Self.entry(id, "a"), Self.entry(UUID().diaryString, "b"), Self.entry(id, "second")])
        #expect(throws: ImportError.badRecord(3, "its \"id\" \(id) is also record 1's: each entry of a file must have an id of its own")) {
            try ImportFile.entries(from: file)
        }
    }

    @Test("An export's own version must be a whole number of at least 1", arguments: ["1.9", "\"1\"", "-1", "0", "true", "null", "1e308"])
    func formatVersion(version: String) {
        do {
            _ = try ImportFile.entries(from: Self.export(version: version, entries: []))
            Issue.record("version \(version) was read")
        } catch {
            #expect(error.description.hasPrefix("The file's \"version\" must be a whole number such as 1"), "\(error.description)")
        }
    }
}

@Suite("Text from outside")
struct TextFromOutsideTests {
    @Test("Half a surrogate pair in JSON is found, and named where it is")
    func loneSurrogates() {
        #expect(LoneSurrogates.firstOffset(in: Array(#"{"t": "a\ud800b"}"#.utf8)) == 8)
        #expect(LoneSurrogates.firstOffset(in: Array(#"{"t": "a\udc00"}"#.utf8)) == 8)
        #expect(LoneSurrogates.firstOffset(in: Array(#"{"t": "\ud800\ud800\udc00"}"#.utf8)) == 7)
        #expect(LoneSurrogates.firstOffset(in: Array(#"{"t": "\ud800"#.utf8)) == 7)
        #expect(LoneSurrogates.firstOffset(in: Array(#"{"t": "\ud834\udd1e \u00e9 \\ud800"}"#.utf8)) == nil)
        #expect(LoneSurrogates.firstOffset(in: Array(#"{"t": "\\\ud800"}"#.utf8)) == 9)
        let json = #"[{"title": "x\udfff", "body": "", "created_at": 1}]"#
        #expect(throws: ImportError.notJSON(reason: LoneSurrogates.reason(at: 13))) { try ImportFile.entries(from: Data(json.utf8)) }
    }

    @Test("A title or body that starts with U+FEFF keeps it on import, as raw UTF-8 or escaped")
    func byteOrderMarks() throws {
        let json = "\u{FEFF}[{\"title\": \"\u{FEFF}\", \"body\": \"\u{FEFF}x\u{FEFF}\", \"created_at\": 1}, {\"title\": \"\\ufeff\", \"body\": \"\", \"created_at\": 1}]"
        let entries = try ImportFile.entries(from: Data(json.utf8))
        #expect(entries.map(\.title) == ["\u{FEFF}", "\u{FEFF}"])
        #expect(entries[0].body == "\u{FEFF}x\u{FEFF}")
    }

    @Test("Vertical tab and form feed stay in a title; line breaks move what follows into the body")
    func titleControls() throws {
        let kept = try EntryText(title: "a\u{0B}b\u{0C}c\u{0}", body: "")
        #expect(kept.title == "a\u{0B}b\u{0C}c\u{0}")
        for lineBreak in ["\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}"] {
            let moved = try EntryText(title: "Title\(lineBreak)rest", body: "")
            #expect(moved.title == "Title" && moved.body == "rest", "\(lineBreak.unicodeScalars.map(\.value))")
        }
    }
}
