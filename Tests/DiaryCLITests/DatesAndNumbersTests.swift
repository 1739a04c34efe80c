import Foundation
import Testing

/// Dates and numbers from files, as a user's `diary import` meets them: exact inside the range,
/// refused outside it with the field, the value and the range, and nothing stored meanwhile.
@Suite("Dates and numbers on the command line", .serialized)
struct DatesAndNumbersTests {
    static let edges = [
        "0001-01-01T00:00:00.000Z", "0999-12-31T23:59:59.999Z", "1582-10-04T12:00:00.000Z", "1969-12-31T23:59:59.999Z",
        "1970-01-01T00:00:00.000Z", "2000-02-29T12:34:56.789Z", "9999-12-31T23:59:59.999Z",
    ]

    static func exportFile(_ dates: [String]) -> String {
        let entries = dates.enumerated().map { index, date in
            #"{"id": "00000000-0000-4000-8000-\#(String(format: "%012d", index))", "title": "On \#(date)", "body": "", "createdAt": "\#(date)", "updatedAt": "\#(date)", "version": 1, "deletedAt": null}"#
        }
        return #"{"format": "diary-export", "version": 1, "entries": [\#(entries.joined(separator: ","))]}"#
    }

    @Test("Moments from year 1 to 9999 come back exactly through import, JSON and Markdown export, in every time zone",
          arguments: ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Seoul", "America/St_Johns", "Asia/Kathmandu"])
    func edgesInEveryZone(zone: String) throws {
        let diary = try DiaryProcess()
        let file = diary.folder.appendingPathComponent("edges.json")
        try Self.exportFile(Self.edges).write(to: file, atomically: true, encoding: .utf8)
        let imported = try diary.run(["import", file.path], environment: ["TZ": zone])
        #expect(imported.status == 0, "\(imported.error)")
        let exported = try diary.run(["export"], environment: ["TZ": zone])
        #expect(exported.status == 0, "\(exported.error)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(exported.output.utf8)) as? [String: Any])["entries"] as? [[String: Any]]
        #expect(entries?.compactMap { $0["createdAt"] as? String } == Self.edges)
        let markdown = try diary.run(["export", "--format", "markdown"], environment: ["TZ": zone])
        for date in Self.edges { #expect(markdown.output.contains("<!-- \(date) -->"), "\(date) in \(zone)") }
        // The list and a single entry show every one of them without dying on any.
        let list = try diary.run(["list", "-n", "20"], environment: ["TZ": zone])
        #expect(list.status == 0 && list.output.split(separator: "\n").count == Self.edges.count, "\(list.error)")
        #expect(try diary.run(["show", "00000000-0000-4000-8000-000000000000"], environment: ["TZ": zone]).status == 0)
    }

    @Test("Out of range, in another unit, or no number: refused naming the record, the field, the value and the range", arguments: [
        (#"[{"title": "t", "created_at": 1608651333000}]"#, #""created_at" is 1608651333000, which looks like milliseconds"#),
        (#"[{"title": "t", "created_at": 1e300}]"#, #""created_at" is 1e+300, outside the dates an entry may have, from 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z"#),
        (#"[{"title": "t", "created_at": -99999999999}]"#, "outside the dates an entry may have"),
        (#"[{"title": "t", "created_at": "NaN"}]"#, #"must be a number of seconds since 1970, not "NaN""#),
        (#"[{"title": "t", "created_at": 1e400}]"#, "not valid JSON"),
        (exportFile(["-0001-01-01T00:00:00.000Z"]), #""createdAt" must be a date such as"#),
        (exportFile(["0000-12-31T23:59:59.999Z"]), "outside the dates an entry may have"),
        (exportFile(["2020-12-22T15:35:33.000Z"]).replacingOccurrences(of: #""version": 1, "deletedAt""#, with: #""version": 9223372036854775807, "deletedAt""#),
         #""version" must be a whole number from 1 to 9,007,199,254,740,991"#),
    ])
    func refused(file: String, message: String) throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Kept"])
        let path = diary.folder.appendingPathComponent("bad.json")
        try file.write(to: path, atomically: true, encoding: .utf8)
        let result = try diary.run(["import", path.path])
        #expect(result.status != 0)
        #expect(result.error.contains(message), "got: \(result.error)")
        #expect(result.error.contains("Nothing was imported") || result.error.contains("nothing was imported"), "got: \(result.error)")
        #expect(!result.error.contains("Fatal error"))
        #expect(try diary.entries().map { $0["title"] as? String } == ["Kept"])
    }

    @Test("An entry imported at the highest version can be read, listed and exported, and its next change is refused in words")
    func highestVersion() throws {
        let diary = try DiaryProcess()
        let file = diary.folder.appendingPathComponent("far.json")
        try Self.exportFile(["2020-12-22T15:35:33.000Z"]).replacingOccurrences(of: #""version": 1, "deletedAt""#, with: #""version": 9007199254740991, "deletedAt""#)
            .write(to: file, atomically: true, encoding: .utf8)
        #expect(try diary.run(["import", file.path]).status == 0)
        #expect(try diary.run(["list"]).status == 0)
        let edit = try diary.run(["edit", "00000000", "--body", "one more"])
        #expect(edit.status != 0)
        #expect(edit.error.contains("highest version"), "got: \(edit.error)")
        #expect(try diary.run(["export"]).output.contains(#""version":9007199254740991"#))
    }

    @Test("Importing into one person's diary never skips an entry because another's holds its id, and twice adds nothing")
    func idsPerDiary() throws {
        let diary = try DiaryProcess()
        for name in ["mina", "joon"] {
            let added = try diary.run(["user", "add", name], input: "long enough pw\nlong enough pw\n", environment: ["DIARY_BCRYPT_COST": "4"])
            #expect(added.status == 0, "\(added.error)")
        }
        let file = diary.folder.appendingPathComponent("shared.json")
        try Self.exportFile(["2020-12-22T15:35:33.000Z", "2021-01-01T00:00:00.000Z"]).write(to: file, atomically: true, encoding: .utf8)
        let first = try diary.run(["import", file.path, "--user", "mina"])
        #expect(first.status == 0 && first.output.contains("2"), "\(first.output) \(first.error)")
        let second = try diary.run(["import", file.path, "--user", "joon"])
        #expect(second.status == 0, "\(second.error)")
        // Joon's import says what it did in Joon's diary alone: two imported, none skipped.
        #expect(second.output == first.output, "mina: \(first.output) joon: \(second.output)")
        let again = try diary.run(["import", file.path, "--user", "joon"])
        #expect(again.status == 0 && again.output != second.output, "\(again.output)")
        for name in ["mina", "joon"] {
            #expect(try diary.run(["list", "--json", "--user", name]).output.components(separatedBy: #""id""#).count == 3)
        }
    }
}
