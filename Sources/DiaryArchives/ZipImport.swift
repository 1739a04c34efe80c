import DiaryCore
import Foundation

/// The ZIP that `diary export --format zip` writes. Its `diary.json`
/// is read as any JSON export; each photo an entry names is taken from `photos/` and kept (its
/// metadata taken out, as any upload's) before the entries are imported, all of them or none.
///
/// A ZIP is a stranger's file: a name that climbs out (`../`) or starts at the root, a link,
/// members that overlap, or a member larger than it may be (counted as it is inflated, whatever
/// the ZIP claims: a ZIP bomb; its photos together too) refuses the whole file before anything
/// is kept. Nothing is ever written outside the database.
struct ZipImport {
    /// The most files a ZIP may hold: a journal and a photo for each of 100,000 entries, twice
    /// over. Each costs memory as the ZIP's directory is read.
    static let maximumMembers = 200_000

    /// Where the photos are kept (the server's, with the writer's quota), and which were new.
    let kept: KeptPhotos
    /// The most a journal (`diary.json`, Day One's JSON) may inflate to.
    let maximumJSONBytes: Int
    /// Refuses a journal of more records than the import takes (`DiaryImport.checkRecords`).
    let checkRecords: (_ journal: Data, _ zip: String, _ before: Int) throws -> Int
    /// Told when the entries are read, then as each photo is kept.
    let progress: DiaryImport.Told

    /// Whether `data` starts as a ZIP does.
    static func isZip(_ data: Data) -> Bool { data.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

    /// The ZIP at `path` (named `zip` in messages), and its files by name, once every name, kind,
    /// size and place is checked: any file that climbs out of its folder, a link, a file larger
    /// than it may be, files that overlap, or two files of one name refuses the whole ZIP.
    static func open(_ path: String, zip: String, maximumJSONBytes: Int) throws -> (ZipFile, [String: ZipFile.Member]) {
        let file = try ZipFile.open(path, zip: zip, maximumMembers: maximumMembers)
        var members: [String: ZipFile.Member] = [:]
        var names: [String: String] = [:]  // each name as a case-insensitive disk sees it
        for member in file.members {
            let name = member.name
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard !name.hasPrefix("/"), !name.contains("\\"), !parts.contains(".."), !name.contains("\0") else {
                throw ZipImportError.unsafe(zip, "it has a file named \"\(name)\", outside its own folder")
            }
            guard member.kind != .link else { throw ZipImportError.unsafe(zip, "it holds a link (\"\(name)\")") }
            // What a member says it unpacks to, checked before anything is read (a ZIP that
            // lies about it is stopped as it is inflated).
            let limit = name.hasPrefix("photos/") ? DiaryPhotos.maximumUploadBytes : maximumJSONBytes
            guard member.size <= UInt64(limit) else { throw ZipImportError.tooLarge(zip, name, limit) }
            guard member.kind == .file else { continue }
            // Two files of one name (or of names that differ only in case, or in how an accent
            // is written, which a Mac's or Windows' disk holds as one): which is meant cannot be
            // told, and the one not read would go unsaid.
            if let other = names.updateValue(name, forKey: name.lowercased()) {
                throw ZipImportError.unsafe(zip, other == name
                    ? "it holds two files named \"\(name)\", and Diary cannot tell which one is meant: make the ZIP again with one"
                    : "it holds \"\(other)\" and \"\(name)\", one name but for its case, and Diary cannot tell which one is meant: make the ZIP again with one")
            }
            members[name] = member
        }
        return (file, members)
    }

    /// The entries of the ZIP at `path`, named `zip` in messages (Diary's, or Day One's when it
    /// has no `diary.json`), their photos kept; and how many photos were new.
    func read(_ path: String, zip: String, as format: ImportFormat?) async throws -> ImportedFile {
        let (archive, members) = try Self.open(path, zip: zip, maximumJSONBytes: maximumJSONBytes)
        if format == .dayone || (format == nil && members["diary.json"] == nil && members.keys.contains(where: DayOneZipImport.isJournal)) {
            return try await DayOneZipImport(kept: kept, maximumJSONBytes: maximumJSONBytes, checkRecords: checkRecords, progress: progress)
                .read(archive, members: members, zip: zip)
        }
        guard format == nil || format == .diary else { throw ImportError.notThisFormat(format!) }
        guard let json = members["diary.json"] else { throw ZipImportError.noDiary(zip) }
        let journal = try archive.bytes(of: json, limit: maximumJSONBytes)
        _ = try checkRecords(journal, zip, 0)
        let entries = try ImportFile.read(journal, as: .diary).entries
        // Each photo named by an entry: from the ZIP (by its name, whatever its extension), or
        // already in the diary.
        var byName: [PhotoID: ZipFile.Member] = [:]
        for (name, member) in members where name.hasPrefix("photos/") {
            let file = name.dropFirst("photos/".count)
            guard let id = PhotoID(file.prefix { $0 != "." }) else { continue }
            if let other = byName.updateValue(member, forKey: id) { throw ZipImportError.samePhoto(zip, other.name, name) }
        }
        let named = Array(Set(entries.flatMap { $0.photos.map(\.id) }))
        let held = try await kept.photos.photos(ids: named)
        var renamed: [PhotoID: StoredPhoto] = [:]
        let wanted = named.filter { held[$0] == nil && byName[$0] != nil }  // a missing one: the import names its entry
        progress(.read(entries: entries.count))
        progress(.photos(done: 0, of: wanted.count))
        for (done, id) in wanted.enumerated() {
            let member = byName[id]!
            let bytes = try archive.photoBytes(of: member)
            renamed[id] = try await kept.keep(bytes, member: member.name, zip: zip)
            progress(.photos(done: done + 1, of: wanted.count))
        }
        // A photo whose bytes changed as it was kept (metadata taken out) has a new name.
        var file = ImportedFile(format: .diary, entries: entries)
        // Another journal beside diary.json is not Diary's to read here, but never passed over unsaid.
        file.notKept.add("JSON file beside diary.json (not read: import it on its own)",
                         members.keys.filter { $0 != "diary.json" && $0.lowercased().hasSuffix(".json") }.count)
        for (index, entry) in entries.enumerated() {
            try file.attach(entry.photos.map { photo in
                guard let kept = renamed[photo.id] else { return photo }
                return EntryPhoto(id: kept.id, caption: photo.caption, width: kept.width, height: kept.height)
            }, to: index)
        }
        return file
    }
}

public enum ZipImportError: Error, CustomStringConvertible {
    case unreadable(String)
    case unsafe(String, String)
    case noDiary(String)
    case tooLarge(String, String, Int)
    /// The photos of the ZIP unpack to more than it may (`ZipFile.photoBytesLeft`), together.
    case photosUnpackTooMuch(String, Int)
    /// Two files of the ZIP hold the same photo (by its name without the extension).
    case samePhoto(String, String, String)
    case badPhoto(String, String, String)
    /// A member that cannot be unpacked, and why in words.
    case unreadableMember(String, String, String)

    public var description: String {
        switch self {
        case .unreadable(let path):
            "\(path) is not a ZIP file Diary can read: it may be damaged or cut short (download or export it again). Nothing was imported."
        case .unreadableMember(let path, let member, let why):
            "\(path): \"\(member)\" cannot be read: \(why). Nothing was imported."
        case .unsafe(let path, let why):
            "\(path) is refused: \(why). Nothing was imported."
        case .noDiary(let path):
            "\(path) holds neither a diary.json (Diary's ZIP export) nor a Day One journal: Diary reads \(ImportFormat.described). Nothing was imported."
        case .tooLarge(let path, let member, let limit):
            "\(path) is refused: \"\(member)\" is larger than \(ByteCountFormatter.string(fromByteCount: Int64(limit), countStyle: .memory)) once unpacked. Nothing was imported."
        case .photosUnpackTooMuch(let path, let limit):
            "\(path) is refused: its photos unpack to more than \(ByteCountFormatter.string(fromByteCount: Int64(limit), countStyle: .memory)) together, 4 times the ZIP's size and 64 MB more: photos barely compress, so this ZIP was made to cost work (a ZIP bomb). Nothing was imported."
        case .samePhoto(let path, let one, let other):
            "\(path) is refused: \"\(one)\" and \"\(other)\" are both the same photo, and Diary cannot tell which one is meant: make the ZIP again with one. Nothing was imported."
        case .badPhoto(let path, let member, let why):
            "\(path): \"\(member)\" cannot be kept: \(why) Nothing was imported."
        }
    }
}
