import Foundation
import Testing

@Suite("Importing and exporting on the command line", .serialized)
struct ImportExportTests {
    @Test("The original app's sample imports as 15 entries, exact duplicates included")
    func sampleImport() throws {
        let diary = try DiaryProcess()
        let result = try diary.run(["import", DiaryProcess.sample])
        #expect(result.output.contains("Imported 15 entries."))
        let entries = try diary.entries()
        #expect(entries.count == 15)
        #expect(entries.allSatisfy { ($0["createdAt"] as? String)?.hasPrefix("2020-12-22") == true })
        // Ids made from content differ from their start, so the short ids shown differ too.
        let shortIDs = Set(entries.compactMap { ($0["id"] as? String)?.prefix(8) })
        #expect(shortIDs.count == 15)
        // Its records carry no ids, yet importing it again adds nothing, and says so.
        let again = try diary.run(["import", DiaryProcess.sample])
        #expect(again.status == 0 && !again.output.contains("Imported 15"), "\(again.output)")
        #expect(try diary.entries().count == 15)
    }

    @Test("Export, import into a new diary, export again: the same file")
    func roundTrip() throws {
        let first = try DiaryProcess()
        try first.run(["import", DiaryProcess.sample])
        try first.run(["new", "Mine", "--body", "with \"quotes\", a tab\tand 한글"])
        let exported = first.folder.appendingPathComponent("export.json").path
        #expect(try first.run(["export", "--output", exported]).status == 0)

        let second = try DiaryProcess()
        #expect(try second.run(["import", exported]).output.contains("Imported 16 entries."))
        let again = second.folder.appendingPathComponent("again.json").path
        try second.run(["export", "--output", again])
        #expect(try Data(contentsOf: URL(fileURLWithPath: exported)) == Data(contentsOf: URL(fileURLWithPath: again)))

        // The same export again adds nothing: its entries carry ids.
        let twice = try second.run(["import", exported])
        #expect(twice.output.contains("Imported 0 entries. Skipped 16 already in the diary."))
        #expect(try second.entries().count == 16)
    }

    @Test("A malformed file imports nothing, and the error names the record")
    func allOrNothing() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Before", "--body", "kept"])
        let file = diary.folder.appendingPathComponent("bad.json")
        var records = (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: DiaryProcess.sample))) as! [[String: Any]])
        records[6]["created_at"] = "last Tuesday"
        try JSONSerialization.data(withJSONObject: records).write(to: file)
        let result = try diary.run(["import", file.path])
        #expect(result.status != 0)
        #expect(result.error.contains("Record 7 cannot be imported"))
        #expect(result.error.contains("created_at"))
        #expect(try diary.entries().map { $0["title"] as? String } == ["Before"])
    }

    @Test("Markdown export has a heading per entry")
    func markdown() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Rain", "--body", "All day."])
        let markdown = try diary.run(["export", "--format", "markdown"]).output
        #expect(markdown.hasPrefix("# Diary\n"))
        #expect(markdown.contains("## Rain\n"))
        #expect(markdown.contains("All day."))
    }

    @Test("Markdown export gives its heading, dates and times in the writer's zone and language, and a body never starts another entry")
    func markdownForReaders() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "--date", "2024-05-01 21:30", "--title", "Notes",
                       "--body", "# Not a heading\nA line\n---\n===\n  ## indented\n***\n#hashtag stays\n- a list item stays"],
                      environment: ["TZ": "Asia/Seoul"])
        try diary.run(["new", "--date", "2024-05-02 08:00", "--body", "No title"], environment: ["TZ": "Asia/Seoul"])
        let english = try diary.run(["export", "--format", "markdown"], environment: ["TZ": "Asia/Seoul"]).output
        #expect(english.contains("*May 1, 2024 9:30"), "\(english)")
        #expect(english.contains("<!-- 2024-05-01T12:30:00.000Z -->"))
        #expect(english.contains("## Untitled\n"))
        // Only the headings Diary writes start a line with #.
        let headings = english.split(separator: "\n").filter { $0.hasPrefix("# ") || $0.hasPrefix("## ") }
        #expect(headings == ["# Diary", "## Notes", "## Untitled"], "\(headings)")
        for escaped in ["\\# Not a heading", "\\---", "\\===", "  \\## indented", "\\***", "#hashtag stays", "- a list item stays"] {
            #expect(english.contains("\n\(escaped)\n"), "\(escaped) in \(english)")
        }
        let korean = try diary.run(["export", "--format", "markdown"], language: "ko_KR.UTF-8", environment: ["TZ": "Asia/Seoul"]).output
        #expect(korean.contains("*2024년 5월 1일 오후 9:30*"), "\(korean)")
        #expect(korean.contains("## 제목 없음\n"))
        #expect(korean.hasPrefix("# 일기장\n"), "\(korean)")
        let koreanHeadings = korean.split(separator: "\n").filter { $0.hasPrefix("# ") || $0.hasPrefix("## ") }
        #expect(koreanHeadings == ["# 일기장", "## Notes", "## 제목 없음"], "\(koreanHeadings)")
    }
}
