@testable import DiaryServer
import Foundation
import Testing

@Suite("Reading an autosave's JSON without JSONDecoder")
struct StringFieldsJSONTests {
    func fields(_ json: String) -> [String: String]? {
        var bytes = Array(json.utf8)
        return fields(bytes: &bytes)
    }

    func fields(bytes: inout [UInt8]) -> [String: String]? {
        bytes.withUnsafeBytes { StringFieldsJSON.fields(of: $0) }.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.key, $0.value) }) }
    }

    @Test("Reads what JSONDecoder reads, escapes and all", arguments: [
        #"{"title":"Rain","body":"All day"}"#,
        " {\n\t\"title\" : \"Rain\" ,\r\n \"body\":\"\" } \n",
        #"{"title":"\"quoted\" \\ back\/slash","body":"line\nnext\ttab\r\b\f"}"#,
        #"{"title":"caf\u00e9 \u00C9","body":"\ud83d\ude00 smile, \u0000 nul"}"#,
        #"{"title":"일기","body":"오늘은 비가 왔다. 😀"}"#,
        #"{}"#,
        #"{"body":"b","title":"t","other":"kept out"}"#,
    ])
    func agreesWithJSONDecoder(json: String) throws {
        let expected = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        #expect(fields(json) == expected)
    }

    @Test("Random text survives JSONEncoder's escaping, and escaping every character as \\u")
    func randomText() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = ["a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{0}", "\u{1F}", "\u{7F}", "é", "일", "기", "😀", "\u{2028}", "\u{FEFF}"]
        for _ in 0..<300 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0..<40, using: &generator) { text.append(alphabet.randomElement(using: &generator)!) }
            let original = String(text)
            let encoded = String(decoding: try JSONEncoder().encode(["title": original, "body": original + "!"]), as: UTF8.self)
            #expect(fields(encoded) == ["title": original, "body": original + "!"])
            let everyUnit = original.utf16.map { String(format: "\\u%04X", $0) }.joined()
            #expect(fields(#"{"title":""# + everyUnit + #"","body":""}"#) == ["title": original, "body": ""])
        }
    }

    @Test("Leaves to JSONDecoder whatever it does not take as is", arguments: [
        #"{"title":5,"body":"b"}"#, #"{"title":"a","body":{"x":"y"}}"#, #"["a"]"#, #""a""#, "",
        #"{"title":"a",}"#, #"{"title":"a" "body":"b"}"#, #"{"title":"a","title":"b"}"#,
        #"{"title":"\ud800","body":""}"#, #"{"title":"\udc00","body":""}"#, #"{"title":"\u12G4"}"#,
        #"{"title":"\x"}"#, "{\"title\":\"tab\tinside\"}", #"{"title":"open"#, #"{"title":"a"} trailing"#,
        #"{"title":null}"#,
    ])
    func refuses(json: String) {
        #expect(fields(json) == nil)
    }

    @Test("Invalid UTF-8 is left to JSONDecoder too")
    func invalidUTF8() {
        var bytes = Array(#"{"title":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(fields(bytes: &bytes) == nil)
    }
}
