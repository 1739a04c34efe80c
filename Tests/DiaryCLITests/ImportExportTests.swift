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
}
