import Foundation
import Testing

/// Text the diary did not write itself: arguments in another encoding, and entries holding
/// terminal escape sequences (sent through the API or an import).
@Suite("Untrusted text on the command line", .serialized)
struct UntrustedTextTests {
    /// A title that would ring the bell, set the clipboard (OSC 52) and clear the screen.
    static let title = "Bell\u{07} clip\u{1b}]52;c;aGk=\u{07} clear\u{1b}[2J"
    /// C1's CSI (U+009B), DEL, and a tab that is kept.
    static let body = "csi\u{9b}2J del\u{7f} tab\tend"
    static let hidden: [Unicode.Scalar] = ["\u{07}", "\u{1b}", "\u{7f}", "\u{9b}"]

    @Test("An argument that is not UTF-8 is refused with its position and status 64, and nothing is saved")
    func argumentNotUTF8() throws {
        let diary = try DiaryProcess()
        // \233 is 0x9B: in Latin-1 the terminal's CSI, and never valid UTF-8 alone.
        let new = try diary.shell(#""$DIARY" new t --body "$(printf 'b\23331m')""#)
        #expect(new.status == 64)
        #expect(new.output.isEmpty)
        #expect(new.error == "Error: argument 4 is not UTF-8, so nothing was done: give it as UTF-8 (for example convert it with iconv -t UTF-8).\n")
        #expect(try diary.entries().isEmpty)

        try diary.run(["new", "Kept", "--body", "as it was"])
        let id = try #require(try diary.entries().first?["id"] as? String)
        // \351 is é in Latin-1.
        let edit = try diary.shell(#""$DIARY" edit "$ID" "Caf$(printf '\351')""#, environment: ["ID": id])
        #expect(edit.status == 64)
        #expect(edit.error.contains("argument 3 is not UTF-8"), "got: \(edit.error)")
        let entry = try #require(try diary.entries().first)
        #expect(entry["title"] as? String == "Kept")
        #expect(entry["version"] as? Int == 1)
    }

    /// `diary ARGS` with standard output on a terminal (`script`'s), as a person runs it.
    func inTerminal(_ diary: DiaryProcess, _ arguments: String) throws -> String {
        let result = try diary.shell(#"script -qec "\"$DIARY\" \#(arguments)" /dev/null"#)
        #expect(result.status == 0, "\(result.output) \(result.error)")
        return result.output
    }

    @Test("In a terminal, list, show, search and trash show control characters instead of sending them")
    func controlsShownInTerminal() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", Self.title, "--body", Self.body])
        let id = try #require(try diary.entries().first?["id"] as? String)

        let list = try inTerminal(diary, "list")
        #expect(list.contains("Bell^G clip^[]52;c;aGk=^G clear^[[2J — csi<U+009B>2J del^? tab\tend"), "got: \(list.debugDescription)")
        let show = try inTerminal(diary, "show \(id)")
        #expect(show.contains("Bell^G clip^[]52;c;aGk=^G clear^[[2J"), "got: \(show.debugDescription)")
        #expect(show.contains("csi<U+009B>2J del^? tab\tend"), "got: \(show.debugDescription)")
        let search = try inTerminal(diary, "search clear")
        #expect(search.contains("clear^[[2J"), "got: \(search.debugDescription)")
        try diary.run(["rm", id])
        let trash = try inTerminal(diary, "trash")
        #expect(trash.contains("clear^[[2J"), "got: \(trash.debugDescription)")

        for output in [list, show, search, trash] {
            // Diary's own colours (bold, dim, back to plain) are the only sequences sent.
            var text = output
            for own in ["\u{1B}[0m", "\u{1B}[1m", "\u{1B}[2m"] { text = text.replacingOccurrences(of: own, with: "") }
            #expect(!text.unicodeScalars.contains(where: Self.hidden.contains), "got: \(output.debugDescription)")
        }
    }

    @Test("Piped, list and show give the saved text byte for byte, and JSON is unchanged")
    func pipedOutputIsExact() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", Self.title, "--body", Self.body])
        let id = try #require(try diary.entries().first?["id"] as? String)
        #expect(try diary.run(["list"]).output.contains(Self.title + " — " + Self.body))
        let show = try diary.run(["show", id]).output
        #expect(show.contains(Self.title + "\n") && show.contains("\n" + Self.body))
        let json = try diary.run(["show", id, "--json"]).output
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(entry["title"] as? String == Self.title)
        #expect(entry["body"] as? String == Self.body)
    }
}
