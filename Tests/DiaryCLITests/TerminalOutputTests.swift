import Foundation
import Testing

/// Whatever a command writes back of a file, the database or the command line (an import's
/// report and errors, a ZIP's member, an id typed, an export): its control characters are
/// shown, never sent. On standard error always; on standard output at a terminal.
@Suite("What reaches a terminal", .serialized)
struct TerminalOutputTests {
    /// OSC 52 (sets the clipboard), BEL, a CSI that clears the screen, and C1's CSI.
    static let hostile = "\u{1B}]52;c;aGk=\u{07}\u{1B}[2J\u{9B}31m"
    static let shown = "^[]52;c;aGk=^G^[[2J<U+009B>31m"

    /// Whether `text` holds a control character a terminal would obey: C0 but tab and line
    /// feed, DEL, C1.
    static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            scalar != "\t" && scalar != "\n" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
        }
    }

    func json(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    @Test("An import's error quotes the file (a version, a record's date, a ZIP's member) with its control characters shown, on standard error")
    func importErrors() throws {
        let diary = try DiaryProcess()
        let files: [(String, Data)] = [
            ("diary.json", try json(["format": "diary-export", "version": Self.hostile, "entries": [Any]()])),
            ("dayone.json", try json(["metadata": ["version": Self.hostile], "entries": [Any]()])),
            ("jrnl.json", try json(["tags": [String: Any](), "entries": [["date": Self.hostile, "time": "10:00", "title": "t", "body": "b"]]])),
            ("photos.zip", StoredZip.data([("../" + Self.hostile, Array("x".utf8))])),
        ]
        for (name, contents) in files {
            let path = diary.folder.appendingPathComponent(name).path
            try contents.write(to: URL(fileURLWithPath: path))
            let result = try diary.run(["import", path])
            #expect(result.status != 0, "\(name)")
            #expect(result.error.contains(Self.shown), "\(name): \(result.error.debugDescription)")
            #expect(!Self.hasControls(result.output + result.error), "\(name): \(result.error.debugDescription)")
        }
        // The file's own name, as typed.
        let missing = try diary.run(["import", diary.folder.appendingPathComponent(Self.hostile).path])
        #expect(missing.error.contains(Self.shown) && !Self.hasControls(missing.error), "\(missing.error.debugDescription)")
        #expect(try diary.entries().isEmpty)
    }

    @Test("What was typed (an id, a date, a count, a command, a name) is shown in the error that quotes it", arguments: [
        ["show", hostile], ["rm", "abc" + hostile], ["edit", "last", "--date", hostile], ["list", "-n", hostile],
        ["lis\u{07}"], ["user", "add", hostile], ["search", "rain" + hostile], ["tags", "rename", hostile, "b"],
    ])
    func typedInErrors(arguments: [String]) throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Rain", "--body", "all day"])
        let result = try diary.run(arguments, input: "a password\n")
        #expect(result.status != 0)
        #expect(!Self.hasControls(result.output + result.error), "\(result.error.debugDescription)")
        #expect(result.error.contains("^[") || result.error.contains("^G") || result.error.contains("U+1B"), "\(result.error.debugDescription)")
    }

    @Test("A token's name typed with control characters is shown in the error that quotes it")
    func tokenName() throws {
        let diary = try DiaryProcess()
        try diary.run(["user", "add", "mina"], input: "a long password\n")
        let result = try diary.run(["token", "revoke", Self.hostile])
        #expect(result.status != 0)
        #expect(result.error.contains(Self.shown) && !Self.hasControls(result.error), "\(result.error.debugDescription)")
    }

    /// `diary ARGS` with standard output and standard error on a terminal (`script`'s): what
    /// the screen was sent, without the terminal's carriage returns and diary's own colours.
    func atTerminal(_ diary: DiaryProcess, _ arguments: String, environment: [String: String] = [:]) throws -> String {
        let screen = try diary.shell("script -qec \"\\\"$DIARY\\\" \(arguments)\" /dev/null", environment: environment)
        var text = screen.output.replacingOccurrences(of: "\r", with: "")
        for own in ["\u{1B}[0m", "\u{1B}[1m", "\u{1B}[2m"] { text = text.replacingOccurrences(of: own, with: "") }
        return text
    }

    @Test("At a terminal, an import's report, an export and JSON show what the file held; piped, an export is byte for byte")
    func reportAndExportAtTerminal() throws {
        let diary = try DiaryProcess()
        let file = diary.folder.appendingPathComponent("jrnl.json")
        // A field Diary has no place for is named in the report: here, by the file.
        try json(["tags": [String: Any](), "entries": [["date": "2024-05-01", "time": "10:00", "title": "Title " + Self.hostile,
                                                          "body": "Body " + Self.hostile, Self.hostile: "kept?"]]]).write(to: file)
        let environment = ["FILE": file.path]
        let report = try atTerminal(diary, "import \\\"$FILE\\\"", environment: environment)
        #expect(report.contains("Imported 1 entry."), "\(report.debugDescription)")
        #expect(report.contains(Self.shown), "\(report.debugDescription)")
        for command in ["export", "export --format markdown", "export --format jrnl", "list --json", "show last --json"] {
            let screen = try atTerminal(diary, command)
            #expect(screen.contains("Title "), "\(command): \(screen.debugDescription)")
            #expect(!Self.hasControls(screen), "\(command): \(screen.debugDescription)")
        }
        #expect(try atTerminal(diary, "export --format markdown").contains("## Title " + Self.shown))
        #expect(try diary.run(["export", "--format", "markdown"]).output.contains("## Title " + Self.hostile + "\n"))
    }

    @Test("No command writes around Output: every print, standard output and standard error goes through it")
    func oneWayOut() throws {
        let sources = DiaryProcess.repository.appendingPathComponent("Sources/diary")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.allObjects as? [URL])
        let around = #"(?<![.\w])print\(|Swift\.print|debugPrint\(|dump\(|FileHandle\.standard(Output|Error)|fputs\(|fwrite\(|\bwrite\(STD(OUT|ERR)_FILENO|StreamLogHandler\.standard"#
        for file in files where file.pathExtension == "swift" && file.lastPathComponent != "Output.swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.range(of: around, options: .regularExpression) != nil {
                Issue.record("\(file.lastPathComponent) writes around Output: \(line)")
            }
        }
    }
}
