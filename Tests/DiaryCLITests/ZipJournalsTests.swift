import Foundation
import Testing

/// Every journal a ZIP holds is imported, or said in the report, or the ZIP is refused by name:
/// none is passed over in silence. Day One's journals all import; two files of one name (or of
/// names a Mac's disk holds as one) leave which is meant unknown, and refuse the ZIP.
@Suite("Every journal of a ZIP is imported or reported", .serialized)
struct ZipJournalsTests {
    static let jeju = HostileZipTests.dayOne("0B5F1E4A9C3D4E7F8A1B2C3D4E5F6A7B", "Jeju")
    static let busan = HostileZipTests.dayOne("1C6A2F5B0D4E5F80A9B1C2D3E4F5A6B7", "Busan")

    func importing(_ members: [StoredZip.Member], in diary: DiaryProcess) throws -> DiaryProcess.Result {
        let path = diary.folder.appendingPathComponent("export.zip").path
        try StoredZip.data(members).write(to: URL(fileURLWithPath: path))
        return try diary.run(["import", path])
    }

    @Test("Day One's several journals all import")
    func dayOneJournals() throws {
        let diary = try DiaryProcess()
        let result = try importing([StoredZip.Member("Journal.json", Self.jeju), StoredZip.Member("Travel.json", Self.busan)], in: diary)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Imported 2 entries."), "\(result.output)")
        #expect(Set(try diary.entries().compactMap { $0["title"] as? String }) == ["Jeju", "Busan"])
    }

    @Test("Two files of one name, or of names a Mac's or Windows' disk holds as one, refuse the ZIP by that name", arguments: [
        ["Journal.json", "Journal.json"], ["diary.json", "Diary.json"], ["Caf\u{E9}.json", "Cafe\u{301}.json"],
    ])
    func sameName(names: [String]) throws {
        let diary = try DiaryProcess()
        let export = Array(#"{"format":"diary-export","version":1,"entries":[]}"#.utf8)
        let contents = names[0] == "diary.json" ? [export, Self.jeju] : [Self.jeju, Self.busan]
        let result = try importing(zip(names, contents).map { StoredZip.Member($0, $1) }, in: diary)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.error.contains("\"\(names[1])\"") && result.error.contains("cannot tell which one is meant"), "\(result.error)")
        #expect(result.error.contains("Nothing was imported"), "\(result.error)")
        #expect(try diary.entries().isEmpty)
    }

    @Test("Two files of one photo (its name, two extensions) refuse the ZIP by their names")
    func samePhoto() throws {
        let diary = try DiaryProcess()
        let id = String(repeating: "d", count: 64)
        let photo = Array(TestPNG.make(width: 8, height: 8, shade: 1))
        let result = try importing([StoredZip.Member("diary.json", HostileZipTests.diaryJSON(photos: [id])),
                                    StoredZip.Member("photos/\(id).png", photo), StoredZip.Member("photos/\(id).jpeg", photo)], in: diary)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.error.contains("photos/\(id).png") && result.error.contains("photos/\(id).jpeg"), "\(result.error)")
        #expect(try diary.entries().isEmpty)
    }

    @Test("A journal beside diary.json, or in a folder beside Day One's, is said in the report")
    func journalsNotRead() throws {
        let diary = try DiaryProcess()
        let export = Array(#"{"format":"diary-export","version":1,"entries":[]}"#.utf8)
        let beside = try importing([StoredZip.Member("diary.json", export), StoredZip.Member("Journal.json", Self.jeju)], in: diary)
        #expect(beside.status == 0, "\(beside.error)")
        #expect(beside.output.contains("1 × JSON file beside diary.json"), "\(beside.output)")
        let folder = try importing([StoredZip.Member("Journal.json", Self.jeju), StoredZip.Member("Old/Travel.json", Self.busan)], in: diary)
        #expect(folder.status == 0, "\(folder.error)")
        #expect(folder.output.contains("Imported 1 entry.") && folder.output.contains("1 × JSON file in a folder of the ZIP"), "\(folder.output)")
    }
}
