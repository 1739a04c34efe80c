import DiaryCore
import Foundation
import ZIPFoundation

/// The whole diary in one file anyone can open. `diary.json` (the
/// JSON export, which `diary import` reads back), `diary.md` (the Markdown, its photos linked),
/// and each photo the entries hold, once, in `photos/` (named by its name and kind). Photos are
/// stored as they are (already compressed); the texts deflated. One photo at a time is in
/// memory. `diary export --format zip` writes it, and the server for `GET /api/v1/export?format=zip`.
public struct ZipExport: Sendable {
    let store: Diary
    /// The Markdown's dates: its language and zone.
    let dates: LongDate

    public init(store: Diary, dates: LongDate) {
        self.store = store
        self.dates = dates
    }

    /// A photo's file in the ZIP: its name, then its kind's extension.
    static func fileName(of photo: StoredPhoto) -> String {
        "\(photo.id.hex).\(photo.format.fileExtension)"
    }

    public func write(to path: String) async throws {
        let (archive, folder) = try Self.begin(at: path)
        defer { try? FileManager.default.removeItem(at: folder) }
        var photos: [PhotoID] = []
        for (name, format) in [("diary.json", DiaryExport.Format.json), ("diary.md", .markdown)] {
            let text = folder.appendingPathComponent(name)
            let handle = try OwnerOnlyFile.create(atPath: text.path)
            let held = try await DiaryExport(store: store, dates: dates).write(format) { try handle.write(contentsOf: $0) }
            try handle.close()
            if format == .json { photos = held }
            try archive.addEntry(with: name, fileURL: text, compressionMethod: .deflate)
        }
        for id in photos {
            // One let go meanwhile is left out.
            guard let photo = try await store.photo(id: id), let bytes = try await store.bytes(of: photo) else { continue }
            try Self.add(bytes, named: "photos/\(Self.fileName(of: photo))", date: photo.storedAt, to: archive)
        }
    }

    /// A new ZIP at `path` (replacing a file there), readable by its owner alone: the export is
    /// the whole diary. And a private folder for the files written before they go into it,
    /// which the caller removes.
    static func begin(at path: String) throws -> (archive: Archive, folder: URL) {
        let url = URL(fileURLWithPath: path)
        try? FileManager.default.removeItem(at: url)
        let archive = try Archive(url: url, accessMode: .create)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diary-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return (archive, folder)
    }

    /// Adds a photo as it is: already compressed, it is stored, not deflated.
    static func add(_ bytes: Data, named name: String, date: Date, to archive: Archive) throws {
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(bytes.count), modificationDate: date) { position, size in
            bytes.subdata(in: Int(position)..<min(Int(position) + size, bytes.count))
        }
    }
}
