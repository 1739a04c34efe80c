import Foundation
import Testing

/// Writing as a jrnl user writes: words without quotes, a date in front, piped bodies, and the
/// newest entries named without their ids.
@Suite("Quick capture on the command line", .serialized)
struct CaptureTests {
    func newest(_ diary: DiaryProcess) throws -> [String: Any] {
        try #require(try diary.entries().first)
    }

    @Test("Words need no quotes: the first sentence is the title and the rest the body")
    func wordsWithoutQuotes() throws {
        let diary = try DiaryProcess()
        #expect(try diary.run(["new", "Rain.", "It", "rained", "all", "day."]).status == 0)
        var entry = try newest(diary)
        #expect(entry["title"] as? String == "Rain.")
        #expect(entry["excerpt"] as? String == "It rained all day.")
        try diary.run(["new", "Rain", "it", "rained", "all", "day"])
        entry = try newest(diary)
        #expect(entry["title"] as? String == "Rain it rained all day")
        // --title and --body stay, and a title given whole is not split.
        try diary.run(["new", "--title", "A. B", "--body", "text"])
        entry = try newest(diary)
        #expect(entry["title"] as? String == "A. B")
        #expect(entry["excerpt"] as? String == "text")
    }

    @Test("Text piped in beside a title is the body; --body - reads standard input")
    func pipedBody() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Title"], input: "The body, piped.\n")
        var entry = try newest(diary)
        #expect(entry["title"] as? String == "Title")
        #expect(entry["excerpt"] as? String == "The body, piped.")
        try diary.run(["new", "Other", "--body", "-"], input: "From --body -\n")
        entry = try newest(diary)
        #expect(entry["title"] as? String == "Other")
        #expect(entry["excerpt"] as? String == "From --body -")
        // Nothing piped: a title alone.
        try diary.run(["new", "Alone"])
        entry = try newest(diary)
        #expect(entry["title"] as? String == "Alone")
        #expect(entry["excerpt"] as? String == "")
    }

    @Test("A date in front, or --date, dates the entry in local time; text that starts with no date is kept whole")
    func datedEntries() throws {
        let diary = try DiaryProcess()
        let seoul = ["TZ": "Asia/Seoul"]
        let saved = try diary.run(["new", "2024-05-01 21:30: Walked by the river. It was cold."], environment: seoul)
        #expect(saved.status == 0, "\(saved.error)")
        #expect(saved.output.contains("May 1, 2024"), "\(saved.output)")
        var entry = try newest(diary)
        #expect(entry["title"] as? String == "Walked by the river.")
        #expect(entry["createdAt"] as? String == "2024-05-01T12:30:00.000Z")
        try diary.run(["new", "--date", "yesterday", "Backdated"], environment: seoul)
        let list = try diary.run(["list", "--json"], environment: seoul).output
        #expect(list.contains("\"Backdated\""))
        try diary.run(["new", "Note: buy milk"])
        entry = try newest(diary)
        #expect(entry["title"] as? String == "Note: buy milk")
        let wrong = try diary.run(["new", "--date", "someday", "x"])
        #expect(wrong.status == 64)
        #expect(wrong.error.contains("--date \"someday\" is not a date"))
        #expect(wrong.error.contains("yesterday 21:30"))
        let far = try diary.run(["new", "--date", "9999-12-31 23:59", "x"], environment: ["TZ": "America/New_York"])
        #expect(far.status == 64)
        #expect(far.error.contains("falls outside the years an entry may have (1 to 9999)"))
    }

    @Test("A word-date in front, quoted or not, dates the entry yesterday at 21:30 in the local time zone")
    func wordDateInFront() throws {
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        for words in [["yesterday 21:30: Walked by the river"], ["yesterday", "21:30:", "Walked", "by", "the", "river"]] {
            let diary = try DiaryProcess()
            // Read before and after: the test may run across Seoul's midnight.
            let before = Self.yesterday(hour: 21, minute: 30, in: seoul)
            let saved = try diary.run(["new"] + words, environment: ["TZ": "Asia/Seoul"])
            let after = Self.yesterday(hour: 21, minute: 30, in: seoul)
            #expect(saved.status == 0, "\(words): \(saved.error)")
            #expect(saved.output.contains("9:30") && saved.output.contains("PM"), "\(words): \(saved.output)")
            let entry = try newest(diary)
            #expect(entry["title"] as? String == "Walked by the river", "\(words)")
            #expect(entry["excerpt"] as? String == "", "\(words)")
            let createdAt = try #require(entry["createdAt"] as? String)
            #expect([before, after].contains(createdAt), "\(words): \(createdAt), not \(before)")
        }
    }

    /// Yesterday at `hour`:`minute` in `timeZone`, as `list --json` writes the moment (UTC).
    static func yesterday(hour: Int, minute: Int, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.startOfDay(for: Date())
        let moment = calendar.date(byAdding: DateComponents(day: -1, hour: hour, minute: minute), to: today)!
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return format.string(from: moment)
    }

    @Test("last and -1, -2, … name the newest entries wherever an id is asked for")
    func newestByPlace() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "--date", "2024-01-01 10:00", "Oldest"])
        try diary.run(["new", "--date", "2024-01-02 10:00", "Middle"])
        try diary.run(["new", "--date", "2024-01-03 10:00", "Newest"])
        #expect(try diary.run(["show", "last"]).output.hasPrefix("Newest"))
        #expect(try diary.run(["show", "-1"]).output.hasPrefix("Newest"))
        #expect(try diary.run(["show", "-3"]).output.hasPrefix("Oldest"))
        #expect(try diary.run(["edit", "-2", "--body", "changed"]).output.contains("version 2"))
        #expect(try diary.run(["show", "-2", "--json"]).output.contains("changed"))
        #expect(try diary.run(["rm", "-1"]).output.contains("to the trash"))
        #expect(try diary.run(["show", "last"]).output.hasPrefix("Middle"))
        // In the trash, last is the most recently deleted.
        #expect(try diary.run(["restore", "last"]).output.contains("Restored"))
        #expect(try diary.run(["show", "last"]).output.hasPrefix("Newest"))
        let past = try diary.run(["show", "-9"])
        #expect(past.status != 0)
        #expect(past.error.contains("-9 is past the end: the diary has 3 entries"))
        #expect(try diary.run(["show", "-0"]).error.contains("-0"))
        #expect(try diary.run(["show", "-20000"]).error.contains("further back than the newest 10000 entries"))
        let empty = try diary.run(["show", ""])
        #expect(empty.status != 0)
        #expect(empty.error.contains("An empty id names no entry"))
        // -n's value is a number, not an entry.
        #expect(try diary.run(["list", "-n1"]).output.split(separator: "\n").count == 1)
        #expect(try diary.run(["list", "-n", "2"]).output.split(separator: "\n").count == 2)
    }

    @Test("list and show give the time of day beside the date")
    func timeOfDay() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "--date", "2024-05-01 21:30", "Evening"])
        let list = try diary.run(["list"]).output
        #expect(list.contains("May 1, 2024 9:30"), "\(list)")
        #expect(list.contains("PM"))
        #expect(try diary.run(["list"], language: "ko_KR.UTF-8").output.contains("2024년 5월 1일 오후 9:30"))
        #expect(try diary.run(["show", "last"]).output.contains("May 1, 2024 9:30"))
    }
}

/// What the command line says is what happened; scripts can tell by the status.
@Suite("Honest messages", .serialized)
struct HonestMessageTests {
    @Test("rm of an entry already in the trash, restore of one that is not, and an edit that changes nothing say so")
    func nothingChanged() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Once", "--body", "body"])
        let id = try #require(try diary.entries().first?["id"] as? String)
        #expect(try diary.run(["restore", id]).output.contains("is not in the trash; nothing changed"))
        let same = try diary.run(["edit", id, "--body", "body"])
        #expect(same.output.contains("Nothing changed"), "\(same.output)")
        #expect(same.output.contains("version 1"))
        try diary.run(["rm", id])
        let again = try diary.run(["rm", id])
        #expect(again.status == 0)
        #expect(again.output.contains("already in the trash; nothing changed"))
        let edited = try diary.run(["edit", id, "--body", "new words"])
        #expect(edited.output.contains("Saved"))
        #expect(edited.output.contains("It is in the trash: bring it back with diary restore"))
    }

    @Test("A search that finds nothing says so on standard error and exits 1, as grep does")
    func searchWithoutMatch() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Rain", "--body", "all day"])
        let none = try diary.run(["search", "snow"])
        #expect(none.status == 1)
        #expect(none.output.isEmpty)
        #expect(none.error.contains("No entry has snow."))
        #expect(try diary.run(["search", "rain"]).status == 0)
    }

    @Test("--version, and a mistyped command names the nearest one")
    func versionAndTypos() throws {
        let diary = try DiaryProcess()
        let version = try diary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.output.range(of: #"^\d+\.\d+\.\d+"#, options: .regularExpression) != nil)
        let typo = try diary.run(["lsit"])
        #expect(typo.status == 64)
        #expect(typo.error.contains("Did you mean \"list\"?"))
        #expect(try diary.run(["serach", "x"]).error.contains("\"search\""))
    }

    @Test("--yes answers only the question of rm --purge and trash --empty: alone it is a usage error that changes nothing")
    func yesAlone() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Kept"])
        for arguments in [["rm", "--yes", "last"], ["rm", "-y", "last"]] {
            let refused = try diary.run(arguments)
            #expect(refused.status == 64, "\(arguments): \(refused.output)")
            #expect(refused.error.contains("--yes only answers the question --purge asks"), "\(refused.error)")
        }
        #expect(try diary.entries().compactMap { $0["title"] as? String } == ["Kept"])
        #expect(try diary.run(["trash"]).output.contains("The trash is empty"))
        try diary.run(["new", "Thrown away"])
        try diary.run(["rm", "last"])
        let notEmptied = try diary.run(["trash", "--yes"])
        #expect(notEmptied.status == 64)
        #expect(notEmptied.error.contains("--yes only answers the question --empty asks"), "\(notEmptied.error)")
        #expect(try diary.run(["trash"]).output.contains("Thrown away"))
        // With the question it answers, --yes does what it says.
        #expect(try diary.run(["rm", "--purge", "--yes", "last"]).output.contains("for good"))
        #expect(try diary.entries().isEmpty)
        #expect(try diary.run(["trash", "--empty", "--yes"]).output.contains("Deleted 1 entry for good"))
    }

    @Test("rm --purge without a terminal needs no answer; export refuses to overwrite a file unless --force")
    func purgeAndOverwrite() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Gone"])
        #expect(try diary.run(["rm", "--purge", "last"]).output.contains("for good"))
        try diary.run(["new", "Kept"])
        let file = diary.folder.appendingPathComponent("export.json").path
        try "precious".write(toFile: file, atomically: true, encoding: .utf8)
        let refused = try diary.run(["export", "--output", file])
        #expect(refused.status == 64)
        #expect(refused.error.contains("exists already"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "precious")
        #expect(try diary.run(["export", "--output", file, "--force"]).status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\"Kept\""))
    }
}
