import Foundation
import Testing

/// The diary by its days and tags renamed, on the command line: `calendar`, `stats`,
/// `tags rename`, and `search` narrowed as `list` is.
@Suite("Calendar, stats, renaming tags and narrowed search on the command line", .serialized)
struct DaysAndRenamingTests {
    static let seoul = ["TZ": "Asia/Seoul"]

    @Test("calendar draws the month, Sunday first, the days written marked, in the writer's time zone")
    func calendar() throws {
        let diary = try DiaryProcess()
        for date in ["2024-05-01 00:30", "2024-05-03 09:00", "2024-05-03 22:00", "2024-06-01 08:00"] {
            #expect(try diary.run(["new", "--date", date, "Written \(date)"], environment: Self.seoul).status == 0)
        }
        let may = try diary.run(["calendar", "2024-05"], environment: Self.seoul)
        #expect(may.status == 0, "\(may.error)")
        let lines = may.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].trimmingCharacters(in: .whitespaces) == "May 2024")
        #expect(lines[1] == "Su  Mo  Tu  We  Th  Fr  Sa")
        #expect(lines[2] == "             1•  2   3•  4", "\(may.output)")  // May 1, 2024 was a Wednesday
        #expect(may.output.contains("2 days written: 3 entries."), "\(may.output)")
        // Seen from New York, each entry is still on the day it was written in Seoul: it keeps
        // its writer's zone (April 30 there, for the first).
        let there = try diary.run(["calendar", "2024-05"], environment: ["TZ": "America/New_York"]).output
        #expect(there == may.output, "\(there)")
        let json = try diary.run(["calendar", "2024-05", "--json"], environment: Self.seoul).output
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((parsed["days"] as? [[String: Any]])?.map { $0["date"] as? String } == ["2024-05-01", "2024-05-03"])
        let empty = try diary.run(["calendar", "1999-01"])
        #expect(empty.status == 0 && empty.output.contains("Nothing written this month."))
        for bad in ["2024-13", "2024-5", "May", "10000-01"] {
            let refused = try diary.run(["calendar", bad])
            #expect(refused.status == 64 && refused.error.contains("not a month"), "\(bad): \(refused.error)")
        }
    }

    @Test("An entry keeps its writer's zone: list and show give its hour on that clock, wherever they are read")
    func writersClock() throws {
        let diary = try DiaryProcess()
        let saved = try diary.run(["new", "--date", "2024-05-01 07:30", "Morning walk"], environment: Self.seoul)
        #expect(saved.status == 0, "\(saved.error)")
        let london = ["TZ": "Europe/London"]
        let line = try diary.run(["list"], environment: london).output
        #expect(line.contains("May 1, 2024 7:30") && line.contains("Morning walk"), "\(line)")
        let id = String(line.prefix(8))
        let shown = try diary.run(["show", id], environment: london).output
        #expect(shown.contains("May 1, 2024 7:30") && shown.contains("(Asia/Seoul)"), "\(shown)")
        // At home, the zone goes without saying.
        let home = try diary.run(["show", id], environment: Self.seoul).output
        #expect(home.contains("May 1, 2024 7:30") && !home.contains("(Asia/Seoul)"), "\(home)")
        let json = try diary.run(["show", id, "--json"], environment: london).output
        #expect(json.contains(#""timeZone" : "Asia/Seoul""#), "\(json)")
    }

    @Test("stats gives the year: entries, words, days, streaks, a heatmap and each month")
    func stats() throws {
        let diary = try DiaryProcess()
        for day in ["01", "02", "03"] {
            #expect(try diary.run(["new", "--date", "2024-03-\(day) 20:00", "Day \(day). A few words here"], environment: Self.seoul).status == 0)
        }
        let year = try diary.run(["stats", "2024"], environment: Self.seoul)
        #expect(year.status == 0, "\(year.error)")
        #expect(year.output.contains("2024: 3 entries, 18 words, 3 days written."), "\(year.output)")
        #expect(year.output.contains("Longest streak: 3 days (2024-03-01 to 2024-03-03)"), "\(year.output)")
        #expect(year.output.contains("Current streak: none"), "\(year.output)")
        #expect(year.output.contains("Mar  3  ████████████████████  18 words"), "\(year.output)")
        // The heatmap: seven rows, one a weekday; March 1, 2024 was a Friday.
        let friday = try #require(year.output.split(separator: "\n").first { $0.hasPrefix("Fri ") })
        #expect(friday.contains("░"), "\(year.output)")
        let json = try diary.run(["stats", "2024", "--json"], environment: Self.seoul).output
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(parsed["words"] as? Int == 18 && (parsed["months"] as? [Any])?.count == 12)
        let bad = try diary.run(["stats", "0"])
        #expect(bad.status == 64 && bad.error.contains("1 to 9999"), "\(bad.error)")
    }

    @Test("tags rename renames and merges across the diary, and says how many entries changed")
    func rename() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "--tag", "trip", "--tag", "food", "One"])
        try diary.run(["new", "--tag", "Travel", "Two"])
        let renamed = try diary.run(["tags", "rename", "TRIP", "travel"])
        #expect(renamed.status == 0, "\(renamed.error)")
        #expect(renamed.output == "TRIP is now travel on 2 entries.\n", "\(renamed.output)")
        #expect(try diary.run(["tags"]).output == "2  travel\n1  food\n")
        #expect(try diary.entries().map { $0["tags"] as? [String] ?? [] } == [["travel"], ["travel", "food"]])
        let nothing = try diary.run(["tags", "rename", "nowhere", "x"])
        #expect(nothing.status == 0 && nothing.output.contains("nothing changed"), "\(nothing.output)")
        let bad = try diary.run(["tags", "rename", "travel", "  "])
        #expect(bad.status == 64 && bad.error.contains("new name"), "\(bad.error)")
        #expect(try diary.run(["tags", "--json"]).output.contains("\"travel\""))
    }

    @Test("search takes list's --tag, --starred, --from, --to and --on")
    func narrowedSearch() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "--tag", "travel", "--date", "2020-06-01 12:00", "Sea. the sea in 2020"])
        try diary.run(["new", "--tag", "travel", "--star", "--date", "2024-06-01 12:00", "Sea again. the sea in 2024"])
        try diary.run(["new", "--date", "2024-07-01 12:00", "Home. no sea here"])
        func titles(_ options: [String]) throws -> [String] {
            let found = try diary.run(["search", "sea", "--json"] + options)
            let hits = try JSONSerialization.jsonObject(with: Data(found.output.utf8)) as? [[String: Any]] ?? []
            return hits.compactMap { ($0["entry"] as? [String: Any])?["title"] as? String }.sorted()
        }
        #expect(try titles([]) == ["Home.", "Sea again.", "Sea."])
        #expect(try titles(["--tag", "Travel"]) == ["Sea again.", "Sea."])
        #expect(try titles(["--starred"]) == ["Sea again."])
        #expect(try titles(["--from", "2024-01-01"]) == ["Home.", "Sea again."])
        #expect(try titles(["--on", "2020-06-01"]) == ["Sea."])
        let none = try diary.run(["search", "sea", "--tag", "nowhere"])
        #expect(none.status == 1 && none.error.contains("among those the options let through"), "\(none.error)")
        let bad = try diary.run(["search", "sea", "--from", "someday"])
        #expect(bad.status == 64 && bad.error.contains("--from"), "\(bad.error)")
    }
}
