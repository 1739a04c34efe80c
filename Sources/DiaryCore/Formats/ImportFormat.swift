import Foundation

/// The formats `diary import` reads, by the names `--format` takes. Each is recognised from the
/// file's content (`ImportFile.read`), never from its name: people rename exports.
public enum ImportFormat: String, CaseIterable, Sendable {
    /// Diary's own export: JSON, or the ZIP with `diary.json` and `photos/`.
    case diary
    /// The original iOS app's `sample.json`: an array of `{title, body, created_at}`.
    case sample
    /// Day One's JSON export (`Journal.json`), or its ZIP of journals and `photos/`.
    case dayone
    /// `jrnl --export json`.
    case jrnlJSON = "jrnl-json"
    /// jrnl's own journal file: `[2020-12-22 15:35] Title` lines.
    case jrnl

    /// This format as a message names it: "Day One's export".
    public var named: String {
        switch self {
        case .diary: "Diary's export"
        case .sample: "the original app's sample"
        case .dayone: "Day One's export"
        case .jrnlJSON: "jrnl's JSON export"
        case .jrnl: "a jrnl journal"
        }
    }

    /// The formats as an error lists them: what a person can bring.
    public static let described = "Diary's JSON or ZIP export, the original app's sample.json, Day One's JSON or ZIP export, jrnl's JSON export, or a jrnl journal file"

    /// Which format JSON of this shape is; `nil` when it is none of them.
    static func of(json: Any) -> ImportFormat? {
        if json is [Any] { return .sample }
        guard let object = json as? [String: Any] else { return nil }
        if object["format"] as? String == ExportFile.format { return .diary }
        guard let entries = object["entries"] as? [Any] else { return nil }
        let first = entries.first as? [String: Any]
        if object["metadata"] is [String: Any], first.map({ $0["uuid"] != nil || $0["creationDate"] != nil }) ?? true {
            return .dayone
        }
        if object["tags"] is [String: Any], first.map({ $0["date"] != nil && $0["time"] != nil }) ?? true {
            return .jrnlJSON
        }
        return nil
    }
}

/// What a file held that Diary does not keep, counted by field ("12 × creationDevice"): the
/// report says it, so nothing is dropped without a word.
public struct NotKept: Sendable, Equatable, CustomStringConvertible {
    public private(set) var counts: [String: Int] = [:]

    public init() {}

    public mutating func add(_ field: String, _ count: Int = 1) {
        guard count > 0 else { return }
        counts[field, default: 0] += count
    }

    public mutating func add(_ other: NotKept) {
        for (field, count) in other.counts { add(field, count) }
    }

    public var isEmpty: Bool { counts.isEmpty }

    /// "12 × creationDevice, 3 × location.placeName": most first, then by name.
    public var description: String {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.value.formatted()) × \($0.key)" }.joined(separator: ", ")
    }
}

/// A photo a file places in an entry, kept in the ZIP beside the entries (Day One's
/// `photos/<md5>.<type>`): found there by `file`, its name without the extension.
public struct SourcePhoto: Sendable, Hashable {
    public let file: String
    public let caption: String

    public init(file: String, caption: String) {
        self.file = file
        self.caption = caption
    }
}

/// A file read and checked, nothing stored yet.
public struct ImportedFile: Sendable {
    public var format: ImportFormat
    public var entries: [Entry]
    /// For each entry (by position), the photos to take from the ZIP; empty but for Day One.
    public var photos: [[SourcePhoto]]
    public var notKept: NotKept
    public var clockChanges: ClockChanges

    public init(format: ImportFormat, entries: [Entry], photos: [[SourcePhoto]]? = nil, notKept: NotKept = NotKept(),
                clockChanges: ClockChanges = ClockChanges()) {
        self.format = format
        self.entries = entries
        self.photos = photos ?? Array(repeating: [], count: entries.count)
        self.notKept = notKept
        self.clockChanges = clockChanges
    }
}

/// How many of a file's times, written without a zone (jrnl's), the clocks skip or show twice
/// in the zone they were read in: each was dated by `LocalTime`'s rule, and the report says so,
/// as it says what was not kept.
public struct ClockChanges: Sendable, Equatable {
    public var skipped = 0
    public var repeated = 0

    public init(skipped: Int = 0, repeated: Int = 0) {
        self.skipped = skipped
        self.repeated = repeated
    }

    public var isEmpty: Bool { skipped == 0 && repeated == 0 }

    mutating func count(_ reading: LocalTime.Reading) {
        switch reading {
        case .once: break
        case .skipped: skipped += 1
        case .repeated: repeated += 1
        }
    }
}

extension ImportedFile {
    /// Gives entry `index` its photos, as stored from the ZIP beside it. A photo placed twice
    /// in one entry is kept once (and counted).
    public mutating func attach(_ photos: [EntryPhoto], to index: Int) throws(ImportError) {
        var seen = Set<PhotoID>()
        let once = photos.filter { seen.insert($0.id).inserted }
        notKept.add("photo placed twice in one entry", photos.count - once.count)
        do {
            entries[index].photos = try EntryEdit.checkedPhotos(once)
        } catch {
            throw .badRecord(index + 1, error.description)
        }
    }

    /// Takes out the entries left with neither words nor photos (a photo-only entry whose photos
    /// the file lacks): the diary keeps no blank entry. They are counted.
    public mutating func dropBlankEntries() {
        let kept = entries.indices.filter { !entries[$0].isBlank }
        notKept.add("entry of photos alone (its photos not in the file)", entries.count - kept.count)
        entries = kept.map { entries[$0] }
        photos = kept.map { photos[$0] }
    }
}
