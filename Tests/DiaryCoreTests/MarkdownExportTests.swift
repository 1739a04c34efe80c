@testable import DiaryCore
import Foundation
import Testing

@Suite("Markdown export")
struct MarkdownExportTests {
    /// Lines Markdown reads as a heading or a rule, and how the export writes each.
    static let escapedLines = [
        ("# x", "\\# x"), ("---", "\\---"), ("===", "\\==="), ("***", "\\***"), ("- - -", "\\- - -"),
        ("  ## indented", "  \\## indented"), ("#", "\\#"),
    ]
    /// Lines that start with a mark but are none of them.
    static let keptLines = ["#hashtag", "- a list item", "-- two", "    # code, not a heading"]
    static let endings = ["\n", "\r\n", "\r"]

    @Test("A heading or rule line is escaped after every line ending Markdown knows: LF, CR LF, a CR alone", arguments: endings)
    func escapedAfterEveryEnding(ending: String) {
        for (line, escaped) in Self.escapedLines {
            #expect(MarkdownExport.escaped("before" + ending + line + ending + "after") == "before" + ending + escaped + ending + "after",
                    "\(line.debugDescription) after \(ending.debugDescription)")
            #expect(MarkdownExport.escaped(line + ending) == escaped + ending, "\(line.debugDescription) then \(ending.debugDescription)")
        }
        for line in Self.keptLines {
            let body = "before" + ending + line + ending + "after"
            #expect(MarkdownExport.escaped(body) == body, "\(line.debugDescription) after \(ending.debugDescription)")
        }
    }

    @Test("Line endings mixed in one body: each line is escaped as it would be alone, and keeps its own ending")
    func mixedEndings() {
        #expect(MarkdownExport.escaped("a\r# b\r\n---\nc\r\r===\r\n# d") == "a\r\\# b\r\n\\---\nc\r\r\\===\r\n\\# d")
        #expect(MarkdownExport.escaped("\r# heading") == "\r\\# heading")
        #expect(MarkdownExport.escaped("\r\n---") == "\r\n\\---")
        #expect(MarkdownExport.escaped("\r\n# x") == "\r\n\\# x")
    }

    @Test("A body written with CR LF or CR never starts another entry in the file")
    func noHeadingFromBody() {
        let export = MarkdownExport(dates: LongDate(environment: ["LANG": "en_US.UTF-8"], timeZone: TimeZone(identifier: "UTC")!))
        let entry = Entry(title: "Notes", body: "first\r## Not an entry\r\n# Nor this\r\n---\rlast", createdAt: Date(timeIntervalSince1970: 0))
        let section = export.section(for: entry)
        // Lines as a Markdown reader splits them.
        let lines = section.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n").split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("#") || $0 == "---" } == ["## Notes"], "\(section.debugDescription)")
        #expect(section.contains("first\r\\## Not an entry\r\n\\# Nor this\r\n\\---\rlast"), "\(section.debugDescription)")
    }
}
