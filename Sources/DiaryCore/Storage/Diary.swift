import Foundation
import Synchronization

/// One user's diary: the rules every entry obeys, written once, over whichever backend keeps
/// its rows (`EntryRows`). The server and the command line go through it and nothing else.
///
/// "Not found" is `nil` on reads and `EntryError.notFound` on writes.
public struct Diary: Sendable {
    /// The backend's rows, reached through this type's methods only: a rule written here holds
    /// for every caller (`scripts/check-seam` holds the rest of the code to it).
    let rows: any EntryRows
    /// The diary's photos, which an entry may only hold once they are stored.
    let photos: any PhotoRows

    public init(rows: any EntryRows, photos: any PhotoRows) {
        self.rows = rows
        self.photos = photos
    }

    /// The most entries one page or batch holds, whatever a caller asks: a number from outside
    /// (`diary trash -n 9223372036854775807`) must not overflow the one more row a page reads.
    public static let largestPage = 10_000

    // MARK: Writing

    /// Stores a new entry written now, where its writer was (if they shared it). `id` lets a
    /// client that retries a create after a lost answer get the entry it already made instead of
    /// a second one. A retry with newer text says which version that text builds on
    /// (`basedOn`): if the earlier try got through and the entry is still at that version, it
    /// takes the new text, as an update would; else the entry is returned as it is. A first try
    /// never says, so an earlier try arriving late never overwrites a later one.
    ///
    /// `moment` dates the entry at another time than now (written the next morning about the
    /// evening before); it must be one an entry may have (`EntryMoment`).
    ///
    /// `tags`, `starred` and `photos` are the new entry's (on a retry, given ones replace the
    /// entry's). Words may be blank when there is a photo. `timeZone` is the writer's clock's
    /// (`ZoneName`), kept with the entry (a retry leaves the first try's).
    ///
    /// Returns the entry as stored, whether this call made it (`false`: a retry, answered with
    /// the entry an earlier try made), and where to look up its weather, if anywhere.
    public func create(_ text: EntryText, id: UUID, location: Coordinates? = nil, basedOn version: Int? = nil,
                       at moment: Date? = nil, tags: [String]? = nil, starred: Bool? = nil,
                       photos: [EntryPhoto]? = nil, timeZone: String? = nil) async throws -> CreatedEntry {
        let now = Date()
        // A retry that says no version gets the entry as it is, whatever it carries: checked no
        // further (an earlier try's words stand; a late one never overwrites them).
        if version == nil, let existing = try await rows.entry(id: id) { return CreatedEntry(entry: existing, made: false) }
        let edit = try await withStoredPhotos(spelledAsTheDiary(
            try EntryEdit(text: text, tags: tags, starred: starred, moment: moment, photos: photos, timeZone: timeZone)))
        let entry = Entry(id: id, title: text.title, body: text.body, createdAt: edit.moment ?? now, updatedAt: now,
                          location: location, tags: edit.tags ?? [], starred: starred ?? false, photos: edit.photos ?? [],
                          timeZone: edit.timeZone)
        if entry.isBlank { throw EntryError.blank }
        let retry = try EntryEdit(text: text, tags: edit.tags, starred: starred, photos: edit.photos)
        let found = FoundEarlier()
        let stored = try await rows.insert(entry) { existing in
            found.mark()
            guard let version, version == existing.version else { return nil }
            return try retry.applied(to: existing, at: now)
        }
        if found.wasFound { return CreatedEntry(entry: stored, made: false) }
        return CreatedEntry(entry: stored, made: true,
                            weatherPlace: Weather.ofNowFits(stored.createdAt, now: now) ? stored.location : nil)
    }

    /// Told, from inside the backend's transaction, that an earlier try had made the entry.
    private final class FoundEarlier: Sendable {
        private let found = Atomic<Bool>(false)
        func mark() { found.store(true, ordering: .relaxed) }
        var wasFound: Bool { found.load(ordering: .relaxed) }
    }

    /// Replaces the entry's text. When `version` is given and the entry is no longer at it, nothing
    /// changes and `EntryError.conflict` carries the current entry. The same words again (a
    /// retried autosave) are no change, whatever version they were based on.
    public func update(id: UUID, to text: EntryText, expecting version: Int?) async throws -> Entry {
        try await edit(id: id, try EntryEdit(text: text), expecting: version)
    }

    /// Makes `edit` (new words, tags, star or moment) as the entry's next version, as `update`
    /// does: a conflict when `version` is given and the entry has moved on; no change (and no
    /// conflict) when the edit leaves the entry as it is.
    public func edit(id: UUID, _ edit: EntryEdit, expecting version: Int?) async throws -> Entry {
        let now = Date()
        let edit = try await withStoredPhotos(spelledAsTheDiary(edit))
        return try await rows.change(id: id) { current in
            guard let changed = try edit.applied(to: current, at: now) else { return nil }
            if let version, version != current.version { throw EntryError.conflict(expected: version, current: current) }
            if changed.isBlank { throw EntryError.blank }
            return changed
        }
    }

    /// A tag is kept as it was first written: given again in another case ("travel" where the
    /// diary has "Travel"), it takes the diary's spelling, so the diary has one tag, not two.
    private func spelledAsTheDiary(_ edit: EntryEdit) async throws -> EntryEdit {
        guard let tags = edit.tags, !tags.isEmpty else { return edit }
        return edit.spelling(tagsAs: try await rows.tagSpellings(keys: tags.map(Tags.key)))
    }

    /// The edit with each photo's size as stored; `EntryError.photoNotStored` for a photo the
    /// diary does not have (a client must upload a photo before an entry may hold it).
    private func withStoredPhotos(_ edit: EntryEdit) async throws -> EntryEdit {
        guard let given = edit.photos, !given.isEmpty else { return edit }
        let stored = try await photos.photos(ids: given.map(\.id))
        var edit = edit
        edit.photos = try given.map { photo in
            guard let found = stored[photo.id] else { throw EntryError.photoNotStored(photo.id.hex) }
            return EntryPhoto(id: photo.id, caption: photo.caption, width: found.width, height: found.height)
        }
        return edit
    }

    /// Records the weather of an entry's moment. It is the server's note, not the writer's
    /// words, so the version does not change: an editor open on the entry keeps saving.
    ///
    /// The weather looked up is the weather of now: an entry redated meanwhile (its moment no
    /// longer within `Weather.nowSpan` of now) is left without it.
    public func attachWeather(_ weather: Weather, to id: UUID, now: Date = Date()) async throws {
        _ = try await rows.change(id: id) { current in
            guard Weather.ofNowFits(current.createdAt, now: now) else { return nil }
            var changed = current
            changed.weather = weather
            return changed
        }
    }

    /// Moves the entry to the trash (again, if it is there already: no error, no change).
    public func moveToTrash(id: UUID) async throws -> Entry {
        let now = Date(millisecondsSince1970: Date().millisecondsSince1970)
        return try await rows.change(id: id) { current in
            if current.isInTrash { return nil }
            var trashed = current
            trashed.deletedAt = now
            try trashed.advanceVersion()
            return trashed
        }
    }

    /// Takes the entry out of the trash (one in the diary already stays as it is).
    public func restore(id: UUID) async throws -> Entry {
        try await rows.change(id: id) { current in
            if !current.isInTrash { return nil }
            var restored = current
            restored.deletedAt = nil
            try restored.advanceVersion()
            return restored
        }
    }

    /// Deletes the entry for good, whether in the trash or not, and the photos no entry holds
    /// any longer.
    public func purge(id: UUID) async throws {
        let held = try await rows.entry(id: id)?.photos.map(\.id) ?? []
        guard try await rows.delete(id: id) else { throw EntryError.notFound(id.diaryString) }
        try await removeUnusedPhotos(including: Set(held))
    }

    /// Empties the trash: every entry in it is deleted for good (the writer has confirmed), and
    /// the photos no entry holds any longer. How many entries.
    public func emptyTrash() async throws -> Int {
        let held = try await trashedPhotos()
        let emptied = try await rows.emptyTrash(deletedBefore: nil)
        try await removeUnusedPhotos(including: held)
        return emptied
    }

    /// The photos the trash's entries hold: a row says whether its entry has any.
    private func trashedPhotos() async throws -> Set<PhotoID> {
        var held = Set<PhotoID>()
        var cursor: EntryCursor?
        repeat {
            let page = try await rows.trash(after: cursor, limit: Self.largestPage)
            for summary in page.entries where summary.photo != nil {
                held.formUnion(try await rows.entry(id: summary.id)?.photos.map(\.id) ?? [])
            }
            cursor = page.nextCursor
        } while cursor != nil
        return held
    }

    /// Lets go of the photos no entry (nor the trash) holds: at once those of entries just
    /// deleted for good (`including`), others once they have waited `DiaryPhotos.unusedGrace`,
    /// so a photo sent ahead of the entry that will hold it (an offline outbox sends photos
    /// first) is not let go before its entry arrives.
    public func removeUnusedPhotos(including: Set<PhotoID> = [], now: Date = Date()) async throws {
        _ = try await photos.removeUnused(storedBefore: now.addingTimeInterval(-DiaryPhotos.unusedGrace), including: including)
    }

    /// How long an entry stays in the trash before the server deletes it for good, unless the
    /// operator says otherwise (`diary serve --trash-days`).
    public static let trashDays = 30

    /// Adds entries in one transaction: all of them or, on any error, none. Entries whose id is
    /// already in this diary are skipped, so importing the same export twice adds nothing; what
    /// other diaries hold plays no part. With `onlyIntoEmptyDiary`, a diary that has any entry
    /// (the trash aside) by the time the transaction begins gets nothing and `EntryError.diaryNotEmpty`.
    /// An entry may name only photos the diary holds (a ZIP import stores its photos first).
    public func importEntries(_ entries: [Entry], onlyIntoEmptyDiary: Bool = false) async throws -> ImportSummary {
        let named = Set(entries.flatMap { $0.photos.map(\.id) })
        if !named.isEmpty {
            let held = try await photos.photos(ids: Array(named))
            for (index, entry) in entries.enumerated() {
                if let missing = entry.photos.first(where: { held[$0.id] == nil }) {
                    throw ImportError.badRecord(index + 1, "it has photo \(missing.id.short)…, which is neither in this diary nor in the file: import the ZIP export, which carries the photos")
                }
            }
        }
        return try await rows.insert(entries, onlyIntoEmptyDiary: onlyIntoEmptyDiary)
    }

    // MARK: Reading

    /// The entry with this id, in the diary or in the trash.
    public func entry(id: UUID) async throws -> Entry? {
        try await rows.entry(id: id)
    }

    /// Up to `limit` ids (in the diary or the trash) that start with `prefix`, in either case:
    /// how a short id typed on the command line is resolved. Nothing but hex digits and dashes
    /// can start an id, so anything else finds nothing.
    public func ids(startingWith prefix: String, limit: Int) async throws -> [UUID] {
        let prefix = prefix.lowercased()
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return [] }
        return try await rows.ids(startingWith: prefix, limit: max(0, min(limit, Self.largestPage)))
    }

    /// The one entry whose id is `idOrPrefix` or starts with it.
    public func resolve(_ idOrPrefix: String) async throws -> UUID {
        if let id = UUID(uuidString: idOrPrefix) { return id }
        let matches = try await ids(startingWith: idOrPrefix, limit: 2)
        switch matches.count {
        case 0: throw EntryError.notFound(idOrPrefix)
        case 1: return matches[0]
        default: throw EntryError.ambiguousID(idOrPrefix)
        }
    }

    /// The diary, newest first, a page at a time; narrowed by `filter` (tags, starred, dates).
    public func list(after cursor: EntryCursor?, limit: Int, filter: EntryFilter = .all) async throws -> EntryPage {
        try await rows.list(after: cursor, limit: Self.pageSize(limit), filter: filter)
    }

    /// The trash, most recently deleted first, a page at a time.
    public func trash(after cursor: EntryCursor?, limit: Int) async throws -> EntryPage {
        try await rows.trash(after: cursor, limit: Self.pageSize(limit))
    }

    /// Every entry in the diary (not the trash), oldest first, whole, a batch at a time: what an
    /// export writes. Oldest first, so importing the file keeps the order of entries written in
    /// the same millisecond.
    public func export(after cursor: EntryCursor?, limit: Int) async throws -> EntryBatch {
        try await rows.export(after: cursor, limit: Self.pageSize(limit))
    }

    /// Entries in the diary (not the trash) that hold every word of `query` and pass `filter`
    /// (tags, starred, dates), best match first, each with a snippet of its body around the
    /// words. A query too long or with too many words is refused (`SearchQueryError`); one with
    /// no letters or digits finds nothing.
    public func search(_ query: String, limit: Int, filter: EntryFilter = .all) async throws -> [SearchHit] {
        let query = try SearchQuery(query)
        guard !query.terms.isEmpty, limit > 0 else { return [] }
        let entries = try await rows.search(query, limit: min(limit, Self.largestPage), filter: filter)
        // Each snippet reads a bounded window of its body; a cancelled search stops between them.
        return try entries.map { entry in
            try Task.checkCancellation()
            return SearchHit(entry: entry.summary, snippet: Snippet.of(entry.body, matching: query.text))
        }
    }

    /// The diary's tags with how many entries have each, the most used first (then by name, as
    /// the writer reads it): the tag list, and the editor's suggestions.
    public func tags() async throws -> [TagCount] {
        try await rows.tagCounts().sorted {
            $0.count != $1.count ? $0.count > $1.count : $0.tag.localizedStandardCompare($1.tag) == .orderedAscending
        }
    }

    /// On this day: the entries written on `day`'s month and day in each earlier year, newest
    /// year first, each year's entries newest first (at most `perYear` of them), as days of
    /// `timeZone`; at most `years` years, the nearest (the list's top shows a few, and asks for
    /// the rest when the writer wants them). A February 29 looks only at leap years. An entry
    /// with its writer's zone is on the day it was written there, as the list shows it.
    public func onThisDay(_ day: Date, in timeZone: TimeZone, perYear: Int = 20, years: Int = .max) async throws -> [YearAgo] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.dateComponents([.year, .month, .day], from: day)
        guard let year = today.year, let month = today.month, let dayOfMonth = today.day else { return [] }
        // The oldest entry bounds the years to look at.
        guard let oldest = try await rows.export(after: nil, limit: 1).entries.first else { return [] }
        // A year earlier than the reader's clock says: on its own clock the oldest entry may be
        // on the last day of the year before.
        let firstYear = calendar.component(.year, from: oldest.createdAt) - 1
        guard firstYear < year else { return [] }
        var found: [YearAgo] = []
        for earlier in stride(from: year - 1, through: max(firstYear, year - Self.yearsBack), by: -1) {
            let components = DateComponents(year: earlier, month: month, day: dayOfMonth)
            guard let start = calendar.date(from: components), calendar.component(.day, from: start) == dayOfMonth,
                  let next = calendar.date(byAdding: .day, value: 1, to: start),
                  let target = LocalDay(year: earlier, month: month, day: dayOfMonth)
            else { continue }  // no February 29 that year
            let entries = try await entries(on: target, from: start, until: next, in: timeZone, most: perYear)
            if !entries.isEmpty { found.append(YearAgo(years: year - earlier, entries: entries)) }
            if found.count >= years { break }
        }
        return found
    }

    /// The entries of `day`, newest first, at most `most`: those of `start..<until` (the day in
    /// `zone`) and those of the hours around it that were written on that day in their own zone
    /// (UTC−12 to UTC+14: up to 26 hours away).
    private func entries(on day: LocalDay, from start: Date, until next: Date, in zone: TimeZone,
                         most: Int) async throws -> [EntrySummary] {
        let reach: TimeInterval = 26 * 3600
        let filter = try EntryFilter(from: start - reach, until: next + reach)
        var zones: [String: TimeZone] = [:]
        var found: [EntrySummary] = []
        var cursor: EntryCursor?
        repeat {
            // Pages of at least 64: the span holds three days, whose entries are read in few queries.
            let page = try await rows.list(after: cursor, limit: Self.pageSize(max(most + 8, 64)), filter: filter)
            for entry in page.entries where found.count < most {
                var its = zone
                if let name = entry.timeZone {
                    its = zones[name] ?? TimeZone(identifier: name) ?? zone
                    zones[name] = its
                }
                if LocalDay(moment: entry.createdAt.millisecondsSince1970, in: its) == day { found.append(entry) }
            }
            cursor = page.nextCursor
        } while cursor != nil && found.count < most
        return found
    }

    /// The photo with this name, if the diary has it: an export writes each photo its entries
    /// hold, and one let go meanwhile is left out.
    public func photo(id: PhotoID) async throws -> StoredPhoto? {
        try await photos.photo(id: id)
    }

    /// Those of these photos that the diary has: what an export links its entries' photos by.
    public func photos(ids: [PhotoID]) async throws -> [PhotoID: StoredPhoto] {
        try await photos.photos(ids: ids)
    }

    /// A stored photo's bytes, read a part at a time (one photo at a time is in memory, as an
    /// export writes it); `nil` when it was let go while it was read.
    public func bytes(of photo: StoredPhoto) async throws -> Data? {
        var bytes = Data(capacity: photo.byteCount)
        for index in 0..<StoredPhoto.partCount(photo.byteCount) {
            guard let part = try await photos.part(index, of: photo.id) else { return nil }
            bytes.append(part)
        }
        return bytes
    }

    /// How far on this day looks back: a lifetime (an imported date of year 1 would otherwise
    /// make it look two thousand years back, a query each).
    public static let yearsBack = 120

    /// How many entries are in the diary (not counting the trash).
    public func count() async throws -> Int {
        try await rows.count()
    }

    /// A number that goes up whenever an entry of this diary or its trash changes in any way
    /// (written, moved, restored, purged, imported, given weather), whoever changed it: another
    /// process too. A page kept in memory is checked against it before it is answered again.
    public func changeCount() async throws -> Int64 {
        try await rows.changeCount()
    }

    private static func pageSize(_ limit: Int) -> Int { min(max(limit, 1), largestPage) }
}

/// What `Diary.create` did.
public struct CreatedEntry: Sendable {
    /// The entry as stored.
    public var entry: Entry
    /// Whether this call made the entry; `false` for a retry that found it made by an earlier
    /// try (then given as it is, or with the retry's newer words: see `Diary.create`). The
    /// server answers 201 for one, 200 for the other.
    public var made: Bool
    /// Where to look up the weather of now for the entry: its place, when this call made it with
    /// one and its moment is now (`Weather.ofNowFits`); `nil` for a retry (the first try looked
    /// it up), an entry without a place, or one dated at another time. The command line and the
    /// server both ask this, so both follow one rule.
    public var weatherPlace: Coordinates?

    public init(entry: Entry, made: Bool, weatherPlace: Coordinates? = nil) {
        self.entry = entry
        self.made = made
        self.weatherPlace = weatherPlace
    }
}

/// Entries written on this day some years ago.
public struct YearAgo: Sendable, Equatable {
    public var years: Int
    public var entries: [EntrySummary]

    public init(years: Int, entries: [EntrySummary]) {
        self.years = years
        self.entries = entries
    }
}
