import DiaryCore
import Foundation

/// One import of a file into one writer's diary, whatever its format (`ImportFormat`): the file
/// read and checked, the photos of a ZIP kept, then every entry stored in one transaction, all
/// or none. `diary import` and the server's `POST /api/v1/import` both run it, telling the
/// writer how far it has got through `progress`.
public struct DiaryImport: Sendable {
    public typealias Told = @Sendable (Progress) -> Void

    /// How far an import has got.
    public enum Progress: Sendable, Equatable {
        /// The file is read and checked: `entries` to store.
        case read(entries: Int)
        /// A ZIP's photos kept so far, and how many there are to keep.
        case photos(done: Int, of: Int)
        /// The entries are being stored, in one transaction.
        case saving(entries: Int)
    }

    /// What the import did.
    public struct Report: Sendable, Equatable {
        public var added: Int
        /// Entries the diary had already (imported before).
        public var skipped: Int
        public var photosAdded: Int
        public var notKept: NotKept
        /// Times of a jrnl file the clocks skip or repeat in the zone it was read in.
        public var clockChanges = ClockChanges()
    }

    /// The most a file of entries may hold (a JSON export, a jrnl journal, a journal in a ZIP)
    /// for `diary import`: a 20-year diary's JSON is about 200 MB. A larger one is refused before
    /// it is read. It is parsed whole: about four times its size in memory for entries of words,
    /// at most `JSONCost.factor` times (a file that would take more is refused before it is read).
    public static let maximumTextBytes = 1 << 30

    let store: Diary
    let photos: DiaryPhotos
    let maximumTextBytes: Int
    let maximumRecords: Int?
    /// The writer's zone, for a format that writes the hour without one (jrnl's), and its name
    /// as those entries keep it (nil: no one said which).
    let zone: TimeZone
    let zoneName: String?

    /// `maximumTextBytes` and `maximumRecords` (`nil`: any number): the server's are lower than
    /// the command line's, so that one writer's import cannot take the memory everyone else's
    /// requests need.
    public init(store: Diary, photos: DiaryPhotos, maximumTextBytes: Int = DiaryImport.maximumTextBytes, maximumRecords: Int? = nil,
                zone: TimeZone = .current, zoneName: String? = ZoneName.ofThisComputer()) {
        self.store = store
        self.zone = zone
        self.zoneName = zoneName
        self.photos = photos
        self.maximumTextBytes = maximumTextBytes
        self.maximumRecords = maximumRecords
    }

    /// Refuses, before it is parsed, a file of entries that holds more records than
    /// `maximumRecords`: counted as its JSON objects (`{`) and its jrnl entry lines (`[` at a
    /// line's start), an upper bound of its entries; `before` counted already (the other journals
    /// of a ZIP). The count so far.
    @discardableResult
    func checkRecords(_ data: Data, name: String, before: Int = 0) throws -> Int {
        guard let maximumRecords else { return 0 }
        var count = before
        var lineStart = true
        data.withUnsafeBytes { bytes in
            for byte in bytes {
                if byte == UInt8(ascii: "{") || (lineStart && byte == UInt8(ascii: "[")) { count += 1 }
                lineStart = byte == 0x0A
            }
        }
        guard count <= maximumRecords else { throw ImportFileError.tooManyRecords(name, maximumRecords) }
        return count
    }

    /// Imports the file at `path`, called `name` in messages; `format` when the writer named it,
    /// else the one its content shows.
    public func run(path: String, name: String, format: ImportFormat?,
                    progress: @escaping Told = { _ in }) async throws -> Report {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ImportFileError.unreadable(name) }
        let head = (try? handle.read(upToCount: 4)) ?? Data()
        // (From the open file: the server's upload is reached by a link, which a path's
        // attributes would describe instead.)
        let size = Int((try? handle.seekToEnd()) ?? 0)
        try? handle.close()
        let kept = KeptPhotos(photos)
        do {
            var read: ImportedFile
            if ZipImport.isZip(head) {
                read = try await ZipImport(kept: kept, maximumJSONBytes: maximumTextBytes, checkRecords: { try checkRecords($0, name: $1, before: $2) },
                                             progress: progress)
                    .read(path, zip: name, as: format)
            } else {
                guard size <= maximumTextBytes else { throw ImportFileError.tooLarge(name, maximumTextBytes) }
                // Mapped, not read: the kernel pages it in as the parser goes.
                guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
                    throw ImportFileError.unreadable(name)
                }
                try checkRecords(data, name: name)
                read = try ImportFile.read(data, as: format, zone: zone, zoneName: zoneName)
                // A JSON file alone has none of the photos it places: they are in Day One's ZIP.
                read.notKept.add("photo (not in a JSON file: import Day One's ZIP to bring them)", read.photos.map(\.count).reduce(0, +))
                read.dropBlankEntries()
                progress(.read(entries: read.entries.count))
            }
            progress(.saving(entries: read.entries.count))
            let summary = try await store.importEntries(read.entries)
            return Report(added: summary.imported, skipped: summary.skipped, photosAdded: kept.added.count, notKept: read.notKept,
                          clockChanges: read.clockChanges)
        } catch {
            await kept.letGo()
            throw error
        }
    }

}

/// A file that cannot be imported before its content is looked at.
public enum ImportFileError: Error, CustomStringConvertible {
    case unreadable(String)
    case tooLarge(String, Int)
    case tooManyRecords(String, Int)

    public var description: String {
        switch self {
        case .unreadable(let name):
            "Cannot read \(name): check that the file exists and that you may read it."
        case .tooManyRecords(let name, let limit):
            "\(name) holds more than \(limit.formatted()) records, more than a 20-year diary has; nothing was imported. Import it on the server with diary import."
        case .tooLarge(let name, let limit):
            "\(name) is larger than \(ByteCountFormatter.string(fromByteCount: Int64(limit), countStyle: .memory)), more than a 20-year diary's entries take; nothing was imported. Import it on the server with diary import, which takes up to 1 GB."
        }
    }
}

extension DiaryPhotoError {
    /// Whether the error is about the photo itself (refused as it is), not the diary's room.
    var isAboutThisPhoto: Bool {
        if case .overQuota = self { return false }
        return true
    }
}
