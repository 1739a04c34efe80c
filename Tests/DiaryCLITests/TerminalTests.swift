import Foundation
import Testing

/// `diary` at a terminal (a pseudo-terminal made by `script`) and in a pipe: colour, the
/// terminal's width, the pager, and questions asked before what cannot be undone.
@Suite("At a terminal", .serialized)
struct TerminalTests {
    /// `diary ARGS` in a pseudo-terminal, `input` typed into it; the screen's text, without the
    /// terminal's carriage returns. Its size is told by `COLUMNS` and `LINES`, or, given `size`,
    /// is the pseudo-terminal's own (set by stty), with neither variable set.
    func atTerminal(_ diary: DiaryProcess, _ arguments: String, input: String = "", size: (columns: Int, rows: Int)? = nil,
                    environment: [String: String] = [:]) throws -> String {
        let resize = size.map { "stty cols \($0.columns) rows \($0.rows); " } ?? ""
        let told = size == nil ? ["COLUMNS": "100", "LINES": "40"] : ["COLUMNS": "", "LINES": ""]
        let screen = try diary.shell("script -qec \"\(resize)\\\"$DIARY\\\" \(arguments)\" /dev/null", input: input,
                                     environment: told.merging(["TERM": "xterm"]) { $1 }.merging(environment) { $1 })
        return screen.output.replacingOccurrences(of: "\r", with: "")
    }

    /// `text` without colour sequences.
    func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    @Test("Colour at a terminal only: never in a pipe, never with NO_COLOR")
    func colour() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Rain", "--body", "all day"])
        #expect(try atTerminal(diary, "list").contains("\u{1B}["))
        #expect(try atTerminal(diary, "show last").contains("\u{1B}[1mRain"))
        #expect(!(try atTerminal(diary, "list", environment: ["NO_COLOR": "1"]).contains("\u{1B}")))
        #expect(!(try atTerminal(diary, "list", environment: ["TERM": "dumb"]).contains("\u{1B}")))
        #expect(!(try diary.run(["list"]).output.contains("\u{1B}")))
    }

    @Test("list and search fit the terminal's width, Korean counted two columns a syllable")
    func width() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "가나다라마바사아자차카타파하 가나다라마바사아자차카타파하 일기", "--body", "이어지는 내용"])
        try diary.run(["new", "An English title long enough to be cut at forty columns", "--body", "and a body"])
        for (command, found) in [("list", 2), ("search 가나", 1)] {
            let screen = try atTerminal(diary, command, environment: ["COLUMNS": "60", "NO_COLOR": "1"])
            let lines = plain(screen).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
            #expect(lines.count == found, "\(command): \(screen.debugDescription)")
            for line in lines {
                #expect(DisplayColumns.of(line) <= 60, "\(command): \(line)")
                #expect(DisplayColumns.of(line) >= 55, "\(command): \(line)")  // the width is used, not wasted
                #expect(line.hasSuffix("…"), "\(command): \(line)")
            }
        }
        // Piped, nothing is cut to a width.
        #expect(try diary.run(["list"], environment: ["COLUMNS": "60"]).output.contains("An English title long enough to be cut at forty columns"))
    }

    @Test("Without COLUMNS, list and search take the terminal's own width")
    func terminalsOwnWidth() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "가나다라마바사아자차카타파하 가나다라마바사아자차카타파하 일기", "--body", "이어지는 내용"])
        try diary.run(["new", "An English title long enough to be cut at fifty columns", "--body", "and a body"])
        for (command, found) in [("list", 2), ("search 가나", 1)] {
            let screen = try atTerminal(diary, command, size: (columns: 50, rows: 40), environment: ["NO_COLOR": "1"])
            let lines = plain(screen).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
            #expect(lines.count == found, "\(command): \(screen.debugDescription)")
            for line in lines {
                #expect(DisplayColumns.of(line) <= 50, "\(command): \(line)")
                #expect(DisplayColumns.of(line) >= 45, "\(command): \(line)")
                #expect(line.hasSuffix("…"), "\(command): \(line)")
            }
        }
        // The same terminal 120 columns wide: the English title fits whole.
        let wide = plain(try atTerminal(diary, "list", size: (columns: 120, rows: 40), environment: ["NO_COLOR": "1"]))
        #expect(wide.contains("An English title long enough to be cut at fifty columns — and a body\n"), "\(wide)")
    }

    @Test("Without $PAGER, long output goes through less with LESS=FRX, as git does; a LESS of one's own is kept")
    func lessWhenNoPager() throws {
        let diary = try DiaryProcess()
        for day in 1...12 { try diary.run(["new", "--date", "2024-05-\(day) 10:00", "Day \(day)"]) }
        // A less of the test's own, first on PATH: it writes down how it was started and what it was given.
        let bin = diary.folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let recorded = diary.folder.appendingPathComponent("less.txt").path
        let less = bin.appendingPathComponent("less").path
        try "#!/bin/sh\n{ printf 'arguments=%s\\n' \"$*\"; printf 'LESS=%s\\n' \"$LESS\"; cat; } > '\(recorded)'\n"
            .write(toFile: less, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: less)
        let environment = ["PAGER": "", "LINES": "5", "PATH": bin.path + ":/usr/bin:/bin"]

        let screen = try atTerminal(diary, "list", environment: environment)
        #expect(!screen.contains("Day 12"), "\(screen)")
        var paged = try String(contentsOfFile: recorded, encoding: .utf8)
        #expect(paged.components(separatedBy: "Day ").count - 1 == 12, "\(paged)")  // the whole list
        // less -FRX: quit when it fits one screen, keep colours, leave the text on the screen.
        #expect(paged.contains("LESS=FRX\n") || paged.contains("arguments=-FRX\n"), "\(paged)")

        try FileManager.default.removeItem(atPath: recorded)
        _ = try atTerminal(diary, "list", environment: environment.merging(["LESS": "-R"]) { $1 })
        paged = try String(contentsOfFile: recorded, encoding: .utf8)
        #expect(paged.contains("LESS=-R\n") && paged.contains("Day 12"), "\(paged)")
    }

    @Test("Long output goes through $PAGER at a terminal; --no-pager and pipes write it straight")
    func pager() throws {
        let diary = try DiaryProcess()
        for day in 1...12 { try diary.run(["new", "--date", "2024-05-\(day) 10:00", "Day \(day)"]) }
        let paged = diary.folder.appendingPathComponent("paged.txt").path
        let pagerEnvironment = ["PAGER": "cat > '\(paged)'", "LINES": "5"]
        let screen = try atTerminal(diary, "list", environment: pagerEnvironment)
        #expect(!screen.contains("Day 12"))
        #expect(try String(contentsOfFile: paged, encoding: .utf8).contains("Day 12"))
        try FileManager.default.removeItem(atPath: paged)
        #expect(try atTerminal(diary, "list --no-pager", environment: pagerEnvironment).contains("Day 12"))
        #expect(!FileManager.default.fileExists(atPath: paged))
        #expect(try diary.run(["list"], environment: pagerEnvironment).output.contains("Day 12"))
        #expect(!FileManager.default.fileExists(atPath: paged))
        // Short output needs no pager.
        #expect(try atTerminal(diary, "list -n 2", environment: pagerEnvironment).contains("Day 12"))
    }

    @Test("rm --purge asks first at a terminal, and only yes deletes")
    func purgeAsks() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Keep me"])
        let declined = try atTerminal(diary, "rm --purge last", input: "n\n")
        #expect(declined.contains("Delete “Keep me”"), "\(declined)")
        #expect(declined.contains("Nothing was deleted."))
        #expect(try diary.entries().count == 1)
        let agreed = try atTerminal(diary, "rm --purge last", input: "y\n")
        #expect(agreed.contains("for good"), "\(agreed)")
        #expect(try diary.entries().isEmpty)
    }
}

/// Columns in a terminal, counted as the tests expect them: Hangul and CJK two, the rest one.
enum DisplayColumns {
    static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { total, scalar in
            switch scalar.value {
            case 0xAC00...0xD7A3, 0x1100...0x115F, 0x3000...0x9FFF: total + 2
            default: total + 1
            }
        }
    }
}
