import Foundation

/// Where a diary's entries are kept.
///
/// Every backend (SQLite now, PostgreSQL later) passes the same conformance suite.
/// "Not found" is `nil` on reads and `EntryError.notFound` on writes.
public protocol EntryStore: Sendable {
    /// Stores a new entry written now, where its writer was (if they shared it). `id` lets a
    /// client that retries a create after a lost answer get the entry it already made instead of
    /// a second one. A retry with newer text says which version that text builds on
    /// (`basedOn`): if the earlier try got through and the entry is still at that version, it
    /// takes the new text, as an update would; else the entry is returned as it is. A first try
    /// never says, so an earlier try arriving late never overwrites a later one.
    func create(_ text: EntryText, id: UUID, location: Coordinates?, basedOn version: Int?) async throws -> Entry

    /// Records the weather of an entry's moment. It is the server's note, not the writer's
    /// words, so the version does not change: an editor open on the entry keeps saving.
    func attachWeather(_ weather: Weather, to id: UUID) async throws

    /// The entry with this id, in the diary or in the trash.
    func entry(id: UUID) async throws -> Entry?

    /// Up to `limit` ids (in the diary or the trash) that start with `prefix`: how a short id typed
    /// on the command line is resolved.
    func ids(startingWith prefix: String, limit: Int) async throws -> [UUID]

    /// Replaces the entry's text. When `version` is given and the entry is no longer at it, nothing
    /// changes and `EntryError.conflict` carries the current entry.
    func update(id: UUID, to text: EntryText, expecting version: Int?) async throws -> Entry

    /// Moves the entry to the trash (again, if it is there already: no error).
    func moveToTrash(id: UUID) async throws -> Entry

    /// Takes the entry out of the trash.
    func restore(id: UUID) async throws -> Entry

    /// Deletes the entry for good, whether in the trash or not.
    func purge(id: UUID) async throws

    /// The diary, newest first, a page at a time.
    func list(after cursor: EntryCursor?, limit: Int) async throws -> EntryPage

    /// The trash, most recently deleted first, a page at a time.
    func trash(after cursor: EntryCursor?, limit: Int) async throws -> EntryPage

    /// Every entry in the diary (not the trash), oldest first, whole, a batch at a time: what an
    /// export writes. Oldest first, so importing the file keeps the order of entries written in
    /// the same millisecond.
    func export(after cursor: EntryCursor?, limit: Int) async throws -> EntryBatch

    /// Entries in the diary (not the trash) that hold every word of `query`, best match first.
    func search(_ query: String, limit: Int) async throws -> [SearchHit]

    /// Adds entries in one transaction: all of them or, on any error, none. Entries whose id is
    /// already in this diary are skipped, so importing the same export twice adds nothing; what
    /// other diaries hold plays no part. With `onlyIntoEmptyDiary`, a diary that has any entry
    /// (the trash aside) by the time the transaction begins gets nothing and `EntryError.diaryNotEmpty`.
    func importEntries(_ entries: [Entry], onlyIntoEmptyDiary: Bool) async throws -> ImportSummary

    /// How many entries are in the diary (not counting the trash).
    func count() async throws -> Int

    /// A number that goes up whenever an entry of this diary or its trash changes in any way
    /// (written, moved, restored, purged, imported, given weather), whoever changed it through a
    /// store: another process too. A page kept in memory is checked against it before it is
    /// answered again.
    func changeCount() async throws -> Int64
}

extension EntryStore {
    /// Stores a new entry (a first try: see `create(_:id:location:basedOn:)`).
    public func create(_ text: EntryText, id: UUID, location: Coordinates?) async throws -> Entry {
        try await create(text, id: id, location: location, basedOn: nil)
    }

    /// Adds entries in one transaction (see `importEntries(_:onlyIntoEmptyDiary:)`).
    public func importEntries(_ entries: [Entry]) async throws -> ImportSummary {
        try await importEntries(entries, onlyIntoEmptyDiary: false)
    }

    /// Stores a new entry with no location.
    public func create(_ text: EntryText, id: UUID) async throws -> Entry {
        try await create(text, id: id, location: nil, basedOn: nil)
    }
}

/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    public var imported: Int
    /// Entries skipped because an entry with the same id was already there.
    public var skipped: Int

    public init(imported: Int, skipped: Int) {
        self.imported = imported
        self.skipped = skipped
    }
}
