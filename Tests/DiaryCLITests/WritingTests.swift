import Foundation
import Testing

@Suite("Writing and reading on the command line", .serialized)
struct WritingTests {
    @Test("An entry written with new is listed with its date, title and the start of its body")
    func newThenList() throws {
        let diary = try DiaryProcess()
        let saved = try diary.run(["new", "Rain", "--body", "It rained all day.\nThe end."])
        #expect(saved.status == 0)
        #expect(saved.output.hasPrefix("Saved "))
        let list = try diary.run(["list"])
        #expect(list.output.contains("Rain — It rained all day."))
        #expect(!list.output.contains("The end."))
    }

    @Test("Piped text becomes an entry: its first line the title, the rest the body")
    func newFromStandardInput() throws {
        let diary = try DiaryProcess()
        try diary.run(["new"], input: "Walk\n\nTo the river and back.\n")
        let entry = try #require(try diary.entries().first)
        #expect(entry["title"] as? String == "Walk")
        #expect(entry["excerpt"] as? String == "To the river and back.")
    }

    @Test("Nothing piped in saves nothing, and says so")
    func blankIsRefused() throws {
        let diary = try DiaryProcess()
        let result = try diary.run(["new"], input: "  \n")
        #expect(result.status != 0)
        #expect(result.error.contains("Nothing was written"))
        let blank = try diary.run(["new", " ", "--body", ""])
        #expect(blank.status != 0)
        #expect(blank.error.contains("The entry is blank"))
        #expect(try diary.entries().isEmpty)
    }

    @Test("The sample's dates are long dates in the reader's language: English and Korean")
    func longDates() throws {
        let diary = try DiaryProcess()
        try diary.run(["import", DiaryProcess.sample])
        let english = try diary.run(["list", "-n", "15"], language: "en_US.UTF-8")
        #expect(english.output.split(separator: "\n").count == 15)
        #expect(english.output.split(separator: "\n").allSatisfy { $0.contains("December 22, 2020") })
        let korean = try diary.run(["list", "-n", "2"], language: "ko_KR.UTF-8")
        #expect(korean.output.contains("2020년 12월 22일"))
        #expect(!korean.output.contains("2051"))
    }

    @Test("show, edit, rm, trash and restore work with a short prefix of the id")
    func lifecycleByPrefix() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "First", "--body", "one"])
        let id = try #require(try diary.entries().first?["id"] as? String)
        let prefix = String(id.prefix(6))

        #expect(try diary.run(["show", prefix]).output.contains("First"))
        #expect(try diary.run(["edit", prefix, "--body", "changed"]).output.contains("version 2"))
        #expect(try diary.run(["show", prefix]).output.contains("changed"))

        #expect(try diary.run(["rm", prefix]).output.contains("to the trash"))
        #expect(try diary.entries().isEmpty)
        #expect(try diary.run(["trash"]).output.contains("First"))
        #expect(try diary.run(["restore", prefix]).status == 0)
        #expect(try diary.entries().count == 1)

        #expect(try diary.run(["rm", "--purge", prefix]).output.contains("for good"))
        #expect(try diary.run(["trash"]).output.contains("The trash is empty"))
        let gone = try diary.run(["show", prefix])
        #expect(gone.status != 0)
    }

    @Test("edit with piped text replaces the title and the body")
    func editFromStandardInput() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Old", "--body", "old body"])
        let id = try #require(try diary.entries().first?["id"] as? String)
        try diary.run(["edit", id], input: "New title\nnew body")
        let shown = try diary.run(["show", id, "--json"]).output
        #expect(shown.contains("\"title\" : \"New title\""))
        #expect(shown.contains("\"body\" : \"new body\""))
    }

    @Test("Search finds Korean inside words and English words, with JSON for scripts")
    func search() throws {
        let diary = try DiaryProcess()
        try diary.run(["import", DiaryProcess.sample])
        try diary.run(["new", "수요일", "--body", "오늘 일기를 썼다"])
        let korean = try diary.run(["search", "일기"])
        #expect(korean.output.contains("수요일"))
        #expect(korean.output.split(separator: "\n").count == 1)
        let english = try diary.run(["search", "serenity", "--json", "-n", "50"])
        let hits = try JSONSerialization.jsonObject(with: Data(english.output.utf8)) as? [[String: Any]]
        #expect(hits?.count == 15)
        #expect((hits?.first?["snippet"] as? String)?.contains("serenity") == true)
        let nowhere = try diary.run(["search", "nowhere"])
        #expect(nowhere.status == 1)
        #expect(nowhere.error.contains("No entry has nowhere"))
    }

    @Test("Without --database or DIARY_DATABASE the diary is made under XDG_DATA_HOME")
    func defaultLocation() throws {
        let diary = try DiaryProcess()
        let dataHome = diary.folder.appendingPathComponent("data").path
        let result = try diary.run(["new", "Here"], environment: ["DIARY_DATABASE": "", "XDG_DATA_HOME": dataHome])
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: dataHome + "/diary/diary.sqlite"))
        let flagged = diary.folder.appendingPathComponent("flag.sqlite").path
        try diary.run(["new", "There", "--database", flagged])
        #expect(FileManager.default.fileExists(atPath: flagged))
    }
}
