import DiaryCore
import Foundation

/// Day One's ZIP export: one JSON file per journal at the top of the ZIP
/// (`Journal.json`, `Travel.json`, …) and each photo as `photos/<md5>.<type>`. Every journal is
/// read and checked before any photo is kept; then each photo an entry places is taken from the
/// ZIP, one at a time, and kept as any photo is (`DiaryPhotos`: checked, its metadata taken out).
/// The ZIP's names and sizes are checked as Diary's own ZIP's are (`ZipImport`).
struct DayOneZipImport {
    let kept: KeptPhotos
    let maximumJSONBytes: Int
    let checkRecords: (_ journal: Data, _ zip: String, _ before: Int) throws -> Int
    let progress: DiaryImport.Told

    /// A journal: a JSON file at the top of the ZIP.
    static func isJournal(_ name: String) -> Bool {
        !name.contains("/") && name.lowercased().hasSuffix(".json")
    }

    func read(_ archive: ZipFile, members: [String: ZipFile.Member], zip: String) async throws -> ImportedFile {
        let journals = members.keys.filter(Self.isJournal).sorted()
        guard !journals.isEmpty else { throw ZipImportError.noDiary(zip) }
        var file = ImportedFile(format: .dayone, entries: [])
        var seen: [UUID: String] = [:]  // which journal holds each entry
        // The journals together are held to the limit of one: each is read whole, and their
        // entries are kept together until they are stored.
        var left = maximumJSONBytes
        var records = 0  // of all the journals, counted together
        var journalsRead = 0
        for name in journals {
            let data = try archive.bytes(of: members[name]!, limit: left)
            left -= data.count
            records = try checkRecords(data, zip, records)
            let journal: ImportedFile
            do {
                journal = try ImportFile.read(data, as: .dayone)
            } catch .notThisFormat {
                // JSON of another shape beside the journals (a tool's manifest.json): counted,
                // not a reason to refuse the journals. One that holds entries is a journal, and
                // a damaged one refuses the ZIP by its name.
                let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
                guard object?["entries"] == nil else {
                    throw DayOneZipError.journal(zip, name, "it holds entries but is not a Day One journal (format 1.0, each entry with a uuid and a creationDate)")
                }
                file.notKept.add("JSON file that is no Day One journal")
                continue
            } catch {
                throw DayOneZipError.journal(zip, name, error.description)
            }
            journalsRead += 1
            for (index, entry) in journal.entries.enumerated() {
                if let other = seen[entry.id] {
                    throw DayOneZipError.journal(zip, name, "record \(index + 1) has the uuid of an entry of \(other); nothing was imported.")
                }
                seen[entry.id] = name
            }
            file.entries += journal.entries
            file.photos += journal.photos
            file.notKept.add(journal.notKept)
        }
        guard journalsRead > 0 else { throw ZipImportError.noDiary(zip) }
        // Day One writes its journals at the ZIP's top: JSON in a folder is counted, not read.
        file.notKept.add("JSON file in a folder of the ZIP (not read: Day One's journals are at its top)",
                         members.keys.filter { !Self.isJournal($0) && $0.lowercased().hasSuffix(".json") }.count)
        // Photos by their file's name without its extension (Day One's md5).
        var byName: [String: ZipFile.Member] = [:]
        for (name, member) in members where name.hasPrefix("photos/") {
            let md5 = String(name.dropFirst("photos/".count).prefix { $0 != "." }).lowercased()
            if let other = byName.updateValue(member, forKey: md5) { throw ZipImportError.samePhoto(zip, other.name, name) }
        }
        var read: [String: StoredPhoto] = [:]  // by md5: a photo placed in two entries is read once
        let toKeep = Set(file.photos.joined().map(\.file)).filter { byName[$0] != nil }.count
        progress(.read(entries: file.entries.count))
        progress(.photos(done: 0, of: toKeep))
        for index in file.entries.indices where !file.photos[index].isEmpty {
            var entryPhotos: [EntryPhoto] = []
            for wanted in file.photos[index] {
                var photo = read[wanted.file]
                if photo == nil {
                    guard let member = byName[wanted.file] else {
                        file.notKept.add("photo missing from the ZIP")
                        continue
                    }
                    let bytes = try archive.photoBytes(of: member)
                    photo = try await kept.keep(bytes, member: member.name, zip: zip)
                    read[wanted.file] = photo
                    progress(.photos(done: read.count, of: toKeep))
                }
                if let photo {
                    entryPhotos.append(EntryPhoto(id: photo.id, caption: wanted.caption, width: photo.width, height: photo.height))
                }
            }
            try file.attach(entryPhotos, to: index)
        }
        file.dropBlankEntries()
        return file
    }
}

public enum DayOneZipError: Error, CustomStringConvertible {
    case journal(String, String, String)

    public var description: String {
        switch self {
        case .journal(let zip, let name, let why): "\(zip): \(name): \(why)"
        }
    }
}
