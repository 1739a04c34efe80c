import Foundation
import Testing

/// A time the clocks skip or show twice, given to `diary` in its zone (TZ): dated by one rule
/// in `new`, `edit` and a jrnl import, and said on standard error, so that no one finds an entry
/// an hour off without a word.
@Suite("Times the clocks skip or repeat, on the command line", .serialized)
struct ClockChangeCommandTests {
    func newest(_ diary: DiaryProcess) throws -> [String: Any] {
        try #require(try diary.entries().first)
    }

    @Test("A skipped time is dated as far later as the clocks go forward, and diary says so", arguments: [
        ("America/New_York", "2026-03-08 02:30", "2026-03-08T07:30:00.000Z",
         "02:30 does not happen on 2026-03-08 in America/New_York (the clocks go forward 1 hour): dated 03:30, UTC-4."),
        ("Australia/Lord_Howe", "2026-10-04 02:15", "2026-10-03T15:45:00.000Z",
         "02:15 does not happen on 2026-10-04 in Australia/Lord_Howe (the clocks go forward 30 minutes): dated 02:45, UTC+11."),
        ("Pacific/Apia", "2011-12-30 12:00", "2011-12-30T22:00:00.000Z",
         "12:00 does not happen on 2011-12-30 in Pacific/Apia (the clocks go forward 24 hours): dated 2011-12-31 12:00, UTC+14."),
    ])
    func skipped(zone: String, date: String, moment: String, said: String) throws {
        let diary = try DiaryProcess()
        let saved = try diary.run(["new", "--date", date, "Late night"], environment: ["TZ": zone])
        #expect(saved.status == 0, "\(saved.error)")
        #expect(try newest(diary)["createdAt"] as? String == moment)
        #expect(saved.error == said + "\n", "\(saved.error)")
    }

    @Test("A repeated time is the first of the two; diary says how to give the second")
    func repeated() throws {
        let diary = try DiaryProcess()
        let berlin = ["TZ": "Europe/Berlin"]
        // The date in front reads as --date does.
        let saved = try diary.run(["new", "2026-10-25 02:30: Clocks go back"], environment: berlin)
        #expect(saved.status == 0, "\(saved.error)")
        #expect(try newest(diary)["createdAt"] as? String == "2026-10-25T00:30:00.000Z")
        #expect(saved.error == "02:30 happens twice on 2026-10-25 in Europe/Berlin (the clocks go back 1 hour): "
            + "dated the first, UTC+2; for the second, give 2026-10-25T02:30+01:00.\n", "\(saved.error)")
        // The second, given as said: its moment, and nothing to say.
        let second = try diary.run(["new", "--date", "2026-10-25T02:30+01:00", "The second"], environment: berlin)
        #expect(second.status == 0 && second.error.isEmpty, "\(second.error)")
        #expect(try newest(diary)["createdAt"] as? String == "2026-10-25T01:30:00.000Z")
        // edit --date reads and says the same, in the southern hemisphere too.
        let edited = try diary.run(["edit", "-2", "--date", "2026-04-05 01:45"], environment: ["TZ": "Australia/Lord_Howe"])
        #expect(edited.status == 0, "\(edited.error)")
        #expect(try diary.entries().map { $0["createdAt"] as? String }.contains("2026-04-04T14:45:00.000Z"))
        #expect(edited.error.contains("01:45 happens twice on 2026-04-05 in Australia/Lord_Howe (the clocks go back 30 minutes): dated the first, UTC+11;"),
                "\(edited.error)")
    }

    @Test("A time the clocks show once says nothing, in a zone without summer time or on another day")
    func once() throws {
        let diary = try DiaryProcess()
        for (zone, date) in [("Asia/Seoul", "2026-03-08 02:30"), ("America/New_York", "2026-03-09 02:30")] {
            let saved = try diary.run(["new", "--date", date, "Quiet"], environment: ["TZ": zone])
            #expect(saved.status == 0 && saved.error.isEmpty, "\(zone): \(saved.error)")
        }
        #expect(try diary.entries().compactMap { $0["createdAt"] as? String } == ["2026-03-09T06:30:00.000Z", "2026-03-07T17:30:00.000Z"])
    }

    @Test("A jrnl journal's skipped and repeated times are dated as diary new dates them, and the report counts them")
    func jrnlImport() throws {
        let diary = try DiaryProcess()
        let journal = diary.folder.appendingPathComponent("journal.txt")
        try "[2026-03-08 02:30] Skipped hour. @night\n\n[2026-11-01 01:30] Repeated hour.\n\n[2026-11-01 09:00] Plain.\n"
            .write(to: journal, atomically: true, encoding: .utf8)
        let imported = try diary.run(["import", journal.path], environment: ["TZ": "America/New_York"])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains("Imported 3 entries."), "\(imported.output)")
        #expect(imported.output.contains("Clock changes in America/New_York: 1 time the clocks skip was dated as far later as they go forward; "
            + "1 time they show twice was dated the first."), "\(imported.output)")
        let moments = try diary.entries().compactMap { $0["createdAt"] as? String }
        #expect(moments == ["2026-11-01T14:00:00.000Z", "2026-11-01T05:30:00.000Z", "2026-03-08T07:30:00.000Z"])
        // The same times typed: the same moments.
        for date in ["2026-03-08 02:30", "2026-11-01 01:30"] {
            try diary.run(["new", "--date", date, "Typed"], environment: ["TZ": "America/New_York"])
        }
        let typed = try diary.entries().filter { $0["title"] as? String == "Typed" }.compactMap { $0["createdAt"] as? String }
        #expect(typed == Array(moments.dropFirst()))
        // A journal without such times says nothing of clocks.
        let plain = diary.folder.appendingPathComponent("plain.txt")
        try "[2026-05-01 09:00] Plain.\n".write(to: plain, atomically: true, encoding: .utf8)
        #expect(!(try diary.run(["import", plain.path], environment: ["TZ": "America/New_York"]).output.contains("Clock")))
    }

    @Test("A day whose midnight the clocks skip holds its own entries only")
    func skippedMidnight() throws {
        let diary = try DiaryProcess()
        let santiago = ["TZ": "America/Santiago"]
        // 23:30 on the 5th, then 01:30 on the 6th: Santiago's clocks go from 00:00 to 01:00.
        try diary.run(["new", "--date", "2026-09-05T23:30:00-04:00", "Saturday night"], environment: santiago)
        try diary.run(["new", "--date", "2026-09-06T01:30:00-03:00", "Sunday"], environment: santiago)
        let on = try diary.run(["list", "--on", "2026-09-06", "--json"], environment: santiago)
        let titles = try #require(try JSONSerialization.jsonObject(with: Data(on.output.utf8)) as? [[String: Any]]).map { $0["title"] as? String }
        #expect(titles == ["Sunday"], "\(on.output)")
    }
}
