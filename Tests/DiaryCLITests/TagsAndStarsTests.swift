import Foundation
import Testing

/// Tags, stars and dates as a jrnl user gives them: `new --tag --star`, `edit --tag --untag
/// --star/--no-star --date`, and `list` and `show` saying them.
@Suite("Tags and stars on the command line", .serialized)
struct TagsAndStarsTests {
    @Test("new --tag and --star keep both; list and show say them")
    func newWithTags() throws {
        let diary = try DiaryProcess()
        let saved = try diary.run(["new", "--tag", "travel", "--tag", " 여행 ", "--tag", "Travel", "--star", "Jeju. The sea was wild."])
        #expect(saved.status == 0, "\(saved.error)")
        let entry = try #require(try diary.entries().first)
        #expect(entry["tags"] as? [String] == ["travel", "여행"])
        #expect(entry["starred"] as? Bool == true)
        let list = try diary.run(["list"]).output
        #expect(list.contains("★ Jeju.") && list.contains("#travel #여행"), "\(list)")
        let shown = try diary.run(["show", "last"]).output
        #expect(shown.contains("★ starred") && shown.contains("#travel #여행"), "\(shown)")
    }

    @Test("edit --tag, --untag, --no-star and --date change only those, as a new version")
    func editTags() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "--tag", "Travel", "--star", "Walk"])
        let edited = try diary.run(["edit", "last", "--tag", "night", "--untag", "TRAVEL", "--no-star", "--date", "2024-05-01 21:30"],
                                   environment: ["TZ": "Asia/Seoul"])
        #expect(edited.status == 0, "\(edited.error)")
        #expect(edited.output.contains("version 2"), "\(edited.output)")
        let entry = try #require(try diary.entries().first)
        #expect(entry["tags"] as? [String] == ["night"])
        #expect(entry["starred"] as? Bool == false)
        #expect(entry["title"] as? String == "Walk")
        #expect(entry["createdAt"] as? String == "2024-05-01T12:30:00.000Z")
        // The same again is no change.
        let again = try diary.run(["edit", "last", "--tag", "NIGHT", "--no-star"])
        #expect(again.output.contains("Nothing changed"), "\(again.output)")
    }

    @Test("A bad tag or date is a usage error that names it, and nothing is saved")
    func badInput() throws {
        let diary = try DiaryProcess()
        let long = try diary.run(["new", "--tag", String(repeating: "x", count: 101), "Never"])
        #expect(long.status == 64 && long.error.contains("100 characters"), "\(long.error)")
        let control = try diary.run(["new", "--tag", "a\u{1}b", "Never"])
        #expect(control.status == 64 && control.error.contains("control character"), "\(control.error)")
        #expect(try diary.entries().isEmpty)
        try diary.run(["new", "Kept"])
        let date = try diary.run(["edit", "last", "--date", "someday"])
        #expect(date.status == 64 && date.error.contains("--date"), "\(date.error)")
        #expect(try diary.entries().first?["title"] as? String == "Kept")
    }
}

/// The list narrowed as jrnl narrows it.
@Suite("Narrowing the list on the command line", .serialized)
struct ListFilterTests {
    @Test("list --tag, --starred, --from, --to and --on, in the writer's time zone")
    func narrowed() throws {
        let diary = try DiaryProcess()
        let seoul = ["TZ": "Asia/Seoul"]
        try diary.run(["new", "--tag", "travel", "--date", "2020-03-01 23:30", "March trip"], environment: seoul)
        try diary.run(["new", "--tag", "travel", "--tag", "food", "--star", "--date", "2020-06-01", "June trip"], environment: seoul)
        try diary.run(["new", "--date", "2021-01-01 00:10", "New year"], environment: seoul)
        func titles(_ arguments: [String]) throws -> [String] {
            let result = try diary.run(["list", "--json"] + arguments, environment: seoul)
            #expect(result.status == 0, "\(result.error)")
            let rows = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]] ?? []
            return rows.compactMap { $0["title"] as? String }
        }
        #expect(try titles(["--tag", "TRAVEL"]) == ["June trip", "March trip"])
        #expect(try titles(["--tag", "travel", "--tag", "food"]) == ["June trip"])
        #expect(try titles(["--starred"]) == ["June trip"])
        // 23:30 in Seoul on March 1 is still March 1 there (14:30 UTC).
        #expect(try titles(["--on", "2020-03-01"]) == ["March trip"])
        #expect(try titles(["--from", "2020-03-02", "--to", "2020-12-31"]) == ["June trip"])
        #expect(try titles(["--from", "2021-01-01"]) == ["New year"])
        let none = try diary.run(["list", "--tag", "nowhere"])
        #expect(none.status == 0 && none.output.contains("No entries match"), "\(none.output)")
        let bad = try diary.run(["list", "--on", "someday"])
        #expect(bad.status == 64 && bad.error.contains("--on"), "\(bad.error)")
        let both = try diary.run(["list", "--on", "today", "--from", "yesterday"])
        #expect(both.status == 64, "\(both.error)")
    }
}

@Suite("Tags and on this day on the command line", .serialized)
struct TagsAndTodayCommandTests {
    @Test("diary tags counts each tag; diary today shows earlier years of the day")
    func tagsAndToday() throws {
        let diary = try DiaryProcess()
        let seoul = ["TZ": "Asia/Seoul"]
        #expect(try diary.run(["tags"]).output.contains("No tags yet"))
        try diary.run(["new", "--tag", "walk", "--date", "2024-11-25 23:30", "Late walk a year ago"], environment: seoul)
        try diary.run(["new", "--tag", "Walk", "--tag", "rain", "--date", "2020-11-25", "Rain five years ago"], environment: seoul)
        try diary.run(["new", "--date", "2025-11-24", "Another day"], environment: seoul)
        let tags = try diary.run(["tags"]).output
        #expect(tags.contains("2  walk") && tags.contains("1  rain"), "\(tags)")
        let today = try diary.run(["today", "--on", "2025-11-25"], environment: seoul)
        #expect(today.status == 0, "\(today.error)")
        #expect(today.output.contains("1 year ago") && today.output.contains("Late walk a year ago"), "\(today.output)")
        #expect(today.output.contains("5 years ago") && !today.output.contains("Another day"), "\(today.output)")
        let korean = try diary.run(["today", "--on", "2025-11-25"], language: "ko_KR.UTF-8", environment: seoul).output
        #expect(korean.contains("1년 전\n") && korean.contains("5년 전\n") && korean.contains("Late walk a year ago"), "\(korean)")
        #expect(!korean.split(separator: "\n").contains { $0.hasSuffix("years ago") || $0 == "1 year ago" }, "\(korean)")
        let none = try diary.run(["today", "--on", "2025-07-01"], environment: seoul)
        #expect(none.output.contains("Nothing written on July 1"), "\(none.output)")
    }
}

@Suite("Emptying the trash on the command line", .serialized)
struct EmptyTrashCommandTests {
    @Test("trash --empty deletes the trash for good without asking in a pipe; an empty trash says so")
    func emptyTrash() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Kept"])
        try diary.run(["new", "Gone"])
        try diary.run(["rm", "last"])
        let emptied = try diary.run(["trash", "--empty"])
        #expect(emptied.status == 0 && emptied.output.contains("Deleted 1 entry for good"), "\(emptied.output)\(emptied.error)")
        #expect(try diary.run(["trash"]).output.contains("The trash is empty"))
        #expect(try diary.run(["trash", "--empty", "--yes"]).output.contains("already empty"))
        #expect(try diary.entries().compactMap { $0["title"] as? String } == ["Kept"])
    }
}
