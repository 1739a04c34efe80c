import Foundation
import Testing

/// The errors a new user meets: each one sentence on standard error, a non-zero status,
/// no stack trace, and nothing stored changed.
@Suite("Errors on the command line", .serialized)
struct ErrorTests {
    func expectOneSentence(_ result: DiaryProcess.Result, containing words: String) {
        #expect(result.status != 0)
        #expect(result.output.isEmpty)
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1, "expected one line, got: \(result.error)")
        #expect(result.error.contains(words), "got: \(result.error)")
        #expect(!result.error.contains("Fatal error") && !result.error.contains("Stack dump"))
    }

    @Test("A database URL is never taken for a file's path: an unknown kind is refused, an unreachable server named")
    func databaseURL() throws {
        let diary = try DiaryProcess()
        let folder = FileManager.default.currentDirectoryPath
        expectOneSentence(try diary.run(["list", "--database", "mysql://mina@localhost/diary"]), containing: "cannot use mysql:// databases")
        expectOneSentence(try diary.run(["list", "--database", "postgres://mina@127.0.0.1:1/diary"]),
                          containing: "Cannot reach PostgreSQL at postgres://mina@127.0.0.1:1/diary")
        expectOneSentence(try diary.run(["list", "--database", "postgres://mina:secret@127.0.0.1:1/diary"]),
                          containing: "holds a password")
        #expect(!FileManager.default.fileExists(atPath: folder + "/mysql:"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/postgres:"))
    }

    @Test("An unknown id")
    func unknownID() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Only"])
        expectOneSentence(try diary.run(["show", "0000"]), containing: "There is no entry with the id 0000.")
        expectOneSentence(try diary.run(["rm", "nothex"]), containing: "There is no entry with the id nothex.")
        #expect(try diary.entries().count == 1)
    }

    @Test("A count below one is a wrong number, named as such, for every command that takes -n", arguments: [
        ["list", "-n", "-1"], ["list", "-n", "0"], ["search", "rain", "-n", "-5"], ["trash", "-n", "0"],
    ])
    func countBelowOne(arguments: [String]) throws {
        let diary = try DiaryProcess()
        let result = try diary.run(arguments)
        #expect(result.status != 0)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("Error: -n must be at least 1."), "got: \(result.error)")
    }

    @Test("A search of more than 256 characters, or of more than 16 different words, is refused and says the limit")
    func searchTooLong() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Rain", "--body", "rain"])
        let long = try diary.run(["search", String(repeating: "a", count: 10_000)])
        #expect(long.status != 0)
        #expect(long.error.contains("at most 256 characters, and this one has 10,000"), "got: \(long.error)")
        let many = try diary.run(["search"] + (0..<17).map { "w\($0)" })
        #expect(many.status != 0)
        #expect(many.error.contains("at most 16 different words"), "got: \(many.error)")
        #expect(try diary.run(["search", "rain", "rain", "rain"]).output.contains("Rain"))
    }

    @Test("A prefix shared by two entries asks for more of the id")
    func ambiguousPrefix() throws {
        let diary = try DiaryProcess()
        // 17 entries: at least two ids share their first hex digit.
        for number in 0..<17 { try diary.run(["new", "Entry \(number)"]) }
        let ids = try diary.entries().compactMap { $0["id"] as? String }
        let shared = try #require(Dictionary(grouping: ids, by: { $0.prefix(1) }).first { $0.value.count > 1 }?.key)
        expectOneSentence(try diary.run(["show", String(shared)]), containing: "type more of the id")
    }

    @Test("A database file that is not a diary is refused and never overwritten")
    func corruptDatabase() throws {
        let diary = try DiaryProcess()
        let contents = Data(repeating: 0x42, count: 8_192)
        FileManager.default.createFile(atPath: diary.database, contents: contents)
        expectOneSentence(try diary.run(["list"]), containing: "is not a diary database")
        expectOneSentence(try diary.run(["new", "Lost?"]), containing: "it was left untouched")
        #expect(FileManager.default.contents(atPath: diary.database) == contents)
    }

    @Test("A database in a folder that cannot be written")
    func unwritableLocation() throws {
        let diary = try DiaryProcess()
        // A path under a regular file can never be created, even by root.
        let blocker = diary.folder.appendingPathComponent("plain-file").path
        FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8))
        expectOneSentence(try diary.run(["list", "--database", blocker + "/diary.sqlite"]), containing: "Cannot open the diary at")
    }

    @Test("A file to import that does not exist, is in no format Diary reads, or is broken JSON")
    func badImportFiles() throws {
        let diary = try DiaryProcess()
        expectOneSentence(try diary.run(["import", diary.folder.appendingPathComponent("missing.json").path]), containing: "Cannot read")
        let csv = diary.folder.appendingPathComponent("entries.csv")
        try Data("title,body\nRain,all day\n".utf8).write(to: csv)
        expectOneSentence(try diary.run(["import", csv.path]), containing: "in no format Diary reads (Diary's JSON or ZIP export")
        let broken = diary.folder.appendingPathComponent("broken.json")
        try Data(#"{"entries": [{"title": "Rain",]}"#.utf8).write(to: broken)
        expectOneSentence(try diary.run(["import", broken.path]), containing: "is not valid JSON")
        #expect(try diary.entries().isEmpty)
    }

    @Test("A backup into a folder that does not exist says so, not to choose another --database")
    func backupFolderMissing() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Kept"])
        let target = diary.folder.appendingPathComponent("newdir/sub/x.sqlite").path
        let result = try diary.run(["backup", target])
        expectOneSentence(result, containing: "the folder \(diary.folder.path)/newdir/sub does not exist")
        #expect(!result.error.contains("--database"), "got: \(result.error)")
        #expect(!FileManager.default.fileExists(atPath: diary.folder.appendingPathComponent("newdir").path))
    }

    @Test("An export to a folder that does not exist leaves nothing behind")
    func badExportPath() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Kept"])
        expectOneSentence(try diary.run(["export", "--output", "/nonexistent-folder/out.json"]), containing: "nothing was exported")
    }
}
