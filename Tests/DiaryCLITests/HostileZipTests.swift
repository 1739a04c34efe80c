import Foundation
import Testing

/// ZIPs whose directory lies: files that share bytes, a header past the end, a stream that
/// runs past its file, a checksum that does not match. Each is refused, by name, before
/// anything is kept, and nothing in it is silently skipped.
@Suite("Importing a hostile ZIP", .serialized)
struct HostileZipTests {
    /// A Diary export of one entry per photo id, each photo named by its id.
    static func diaryJSON(photos: [String]) -> [UInt8] {
        let entries = photos.enumerated().map { index, id in
            #"{"id":"\#(UUID().uuidString.lowercased())","title":"Day \#(index + 1)","body":"","createdAt":"2024-05-0\#(index + 1)T12:00:00.000Z","photos":[{"id":"\#(id)","caption":""}]}"#
        }
        return Array(#"{"format":"diary-export","version":1,"entries":[\#(entries.joined(separator: ","))]}"#.utf8)
    }

    /// A Day One journal of one entry.
    static func dayOne(_ uuid: String, _ text: String) -> [UInt8] {
        Array(#"{"metadata":{"version":"1.0"},"entries":[{"uuid":"\#(uuid)","creationDate":"2024-05-01T12:30:00Z","text":"\#(text)"}]}"#.utf8)
    }

    static let photoIDs = ["a", "b", "c"].map { String(repeating: $0, count: 64) }

    /// `diary import` of `zip` (written as `name`), stopped after 30 seconds (status 124).
    func importing(_ zip: Data, named name: String = "hostile.zip", in diary: DiaryProcess) throws -> DiaryProcess.Result {
        let path = diary.folder.appendingPathComponent(name).path
        try zip.write(to: URL(fileURLWithPath: path))
        return try diary.shell("timeout 30 \"$DIARY\" import '\(path)'")
    }

    @Test("A ZIP whose directory points several files at the same bytes is refused before anything is inflated, naming them")
    func overlappingFiles() throws {
        let diary = try DiaryProcess()
        let photo = Array(TestPNG.make(width: 16, height: 16, shade: 90))
        let members = [StoredZip.Member("diary.json", Self.diaryJSON(photos: Self.photoIDs)),
                       StoredZip.Member("photos/\(Self.photoIDs[0]).png", photo)]
        // The "better zip bomb": each entry of the directory a file of its own, all of one file's bytes.
        let directory: [(name: String, offset: StoredZip.Offset)] = [("diary.json", .at(0))] + Self.photoIDs.map { ("photos/\($0).png", .at(1)) }
        let result = try importing(StoredZip.data(members, directory: directory), in: diary)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.error.contains("overlap") && result.error.contains("photos/\(Self.photoIDs[0]).png"), "\(result.error)")
        #expect(result.error.contains("Nothing was imported"), "\(result.error)")
        #expect(try diary.entries().isEmpty)
    }

    @Test("A compressed file whose stream does not end within its own bytes is damaged: refused at once, not read on into the next file's or for ever")
    func streamPastItsFile() throws {
        let diary = try DiaryProcess()
        // A Deflate block that says 65,535 stored bytes follow: the rest of the file, its directory included.
        let journal = StoredZip.Member("diary.json", [0x00, 0xFF, 0xFF, 0x00, 0x00], method: 8, size: 100, checksum: 0)
        let result = try importing(StoredZip.data([journal]), in: diary)
        #expect(result.status == 1, "status \(result.status): \(result.error)")
        #expect(result.error.contains("\"diary.json\" cannot be read") && result.error.contains("damaged"), "\(result.error)")
        #expect(try diary.entries().isEmpty)
    }

    @Test("A file whose bytes do not match its checksum is damaged, and imports nothing")
    func wrongChecksum() throws {
        let diary = try DiaryProcess()
        let journal = StoredZip.Member("Journal.json", Self.dayOne("0B5F1E4A9C3D4E7F8A1B2C3D4E5F6A7B", "Jeju"), checksum: 12_345)
        let result = try importing(StoredZip.data([journal]), in: diary)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.error.contains("\"Journal.json\" cannot be read") && result.error.contains("damaged"), "\(result.error)")
        #expect(try diary.entries().isEmpty)
    }

    @Test("A file the directory places past the end of the ZIP refuses it as damaged, rather than import the others without it")
    func filePastTheEnd() throws {
        let diary = try DiaryProcess()
        let members = [StoredZip.Member("Journal.json", Self.dayOne("0B5F1E4A9C3D4E7F8A1B2C3D4E5F6A7B", "Jeju")),
                       StoredZip.Member("Travel.json", Self.dayOne("1C6A2F5B0D4E5F80A9B1C2D3E4F5A6B7", "Busan"))]
        let result = try importing(StoredZip.data(members, directory: [("Journal.json", .at(0)), ("Travel.json", .past(1_000))]), in: diary)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.error.contains("damaged or cut short") && result.error.contains("Nothing was imported"), "\(result.error)")
        #expect(try diary.entries().isEmpty)
    }
}
