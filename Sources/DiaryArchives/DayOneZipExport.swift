import DiaryCore
import Foundation
import ZIPFoundation

/// `diary export --format dayone`: a ZIP Day One imports. `Journal.json` (Day One's JSON,
/// version 1.0: `DayOneFile`) and each photo the entries hold, once, as `photos/<md5>.<type>`.
/// `diary import` reads it back with nothing Diary keeps lost. One photo at a time is in memory,
/// and the entries a batch at a time.
public struct DayOneZipExport: Sendable {
    let store: Diary

    public init(store: Diary) {
        self.store = store
    }

    public func write(to path: String) async throws {
        let (archive, folder) = try ZipExport.begin(at: path)
        defer { try? FileManager.default.removeItem(at: folder) }

        // The photos first: Day One names each by the MD5 of its bytes, which the JSON needs.
        var files: [PhotoID: DayOneFile.PhotoFile] = [:]
        var cursor: EntryCursor?
        repeat {
            let batch = try await store.export(after: cursor, limit: 1_000)
            for id in batch.entries.flatMap({ $0.photos.map(\.id) }) where files[id] == nil {
                // One let go meanwhile is left out.
                guard let photo = try await store.photo(id: id), let bytes = try await store.bytes(of: photo) else { continue }
                let file = DayOneFile.PhotoFile(md5: DayOneFile.md5(of: bytes), type: photo.format.rawValue, width: photo.width, height: photo.height)
                try ZipExport.add(bytes, named: "photos/\(file.md5).\(file.type)", date: photo.storedAt, to: archive)
                files[id] = file
            }
            cursor = batch.nextCursor
        } while cursor != nil

        let journal = folder.appendingPathComponent("Journal.json")
        let handle = try OwnerOnlyFile.create(atPath: journal.path)
        try handle.write(contentsOf: Data(DayOneFile.header.utf8))
        var first = true
        repeat {
            let batch = try await store.export(after: cursor, limit: 1_000)
            var buffer = Data()
            for entry in batch.entries {
                if !first { buffer.append(contentsOf: DayOneFile.separator.utf8) }
                buffer.append(DayOneFile.record(for: entry, files: files))
                first = false
            }
            try handle.write(contentsOf: buffer)
            cursor = batch.nextCursor
        } while cursor != nil
        try handle.write(contentsOf: Data(DayOneFile.footer.utf8))
        try handle.close()
        try archive.addEntry(with: "Journal.json", fileURL: journal, compressionMethod: .deflate)
    }
}
