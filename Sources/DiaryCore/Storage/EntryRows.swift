import Foundation

/// One user's diary as a backend keeps it: rows read and written, nothing decided.
///
/// What an entry may become (versions, conflicts, the trash, retried creates, limits) is
/// decided once, by `Diary`, in the closures it hands to `insert(_:orChange:)` and
/// `change(id:_:)`; a backend runs each closure inside its own transaction, between reading the
/// row and writing it, so no other write comes between. Every backend passes the conformance
/// suites in `Tests/DiaryStoreTests` (see `StoreBackend`).
///
/// Every requirement is scoped to the diary's owner: another user's entry is as good as absent.
/// Entry text is kept exactly, byte for byte (NUL included); dates to the millisecond.
public protocol EntryRows: Sendable {
    /// The entry with this id, in the diary or in its trash; `nil` when there is none.
    func entry(id: UUID) async throws -> Entry?

    /// Up to `limit` ids (in the diary or the trash) that start with `prefix`, which holds only
    /// lower-case hex digits and dashes.
    func ids(startingWith prefix: String, limit: Int) async throws -> [UUID]

    /// Stores `entry` when the diary has no entry with its id. When it has one, reads it and
    /// writes what `change` makes of it instead (`nil`: nothing), all in one transaction.
    /// Returns the entry as stored afterwards. Errors thrown by `change` leave everything as it was.
    func insert(_ entry: Entry, orChange change: @escaping @Sendable (Entry) throws -> Entry?) async throws -> Entry

    /// Reads the entry with this id and writes what `change` makes of it (`nil`: nothing), with
    /// no other write between. Returns the entry as stored afterwards; `EntryError.notFound`
    /// when there is no such entry. A changed title or body changes what search finds.
    func change(id: UUID, _ change: @escaping @Sendable (Entry) throws -> Entry?) async throws -> Entry

    /// Deletes the entry for good, and its words from the search index; `false` when there was none.
    func delete(id: UUID) async throws -> Bool

    /// Up to `limit` (at most `Diary.largestPage`) entries of the diary, not the trash, newest
    /// first (`createdAt`, then the order they were stored in), after `cursor`, narrowed by
    /// `filter` (each of its tags, starred, within its moments).
    func list(after cursor: EntryCursor?, limit: Int, filter: EntryFilter) async throws -> EntryPage

    /// Up to `limit` entries of the trash, most recently deleted first, after `cursor`.
    func trash(after cursor: EntryCursor?, limit: Int) async throws -> EntryPage

    /// Up to `limit` whole entries of the diary (not the trash), oldest first, after `cursor`.
    func export(after cursor: EntryCursor?, limit: Int) async throws -> EntryBatch

    /// Up to `limit` entries of the diary (not the trash) holding every term of `query` (each
    /// term's tokens as made by `SearchText`, a prefix where the term says so) and let through
    /// by `filter`, best match first, then newest. Stops with `CancellationError` when its task
    /// is cancelled.
    func search(_ query: SearchQuery, limit: Int, filter: EntryFilter) async throws -> [Entry]

    /// Stores every entry whose id the diary does not hold yet, in one transaction: all or,
    /// on any error, none. With `onlyIntoEmptyDiary`, a diary holding any entry (the trash
    /// aside) when the transaction begins gets nothing and `EntryError.diaryNotEmpty`.
    func insert(_ entries: [Entry], onlyIntoEmptyDiary: Bool) async throws -> ImportSummary

    /// How the diary spells each of these tag keys (`Tags.key`) on its entries (not the trash):
    /// key → tag, for the keys it has.
    func tagSpellings(keys: [String]) async throws -> [String: String]

    /// Deletes for good every entry of the trash moved there before `moment` (`nil`: all of
    /// them), with their words, in one transaction; how many.
    func emptyTrash(deletedBefore moment: Date?) async throws -> Int

    /// Every tag of the diary's entries (not the trash), each once, spelled as its earliest entry
    /// spells it, with how many entries have it.
    func tagCounts() async throws -> [TagCount]

    /// Reads every entry, in the diary and in its trash, that has a tag whose key (`Tags.key`) is
    /// one of `keys`, and writes what `change` makes of each (`nil`: nothing); how many were
    /// written. Each entry is read and written with no other write between; a backend whose
    /// writes hold up every diary's (SQLite's one writer) may do it in several transactions, so an
    /// error can leave the earlier ones done: running the same change again finishes it.
    func changeEntries(taggedWith keys: Set<String>, _ change: @escaping @Sendable (Entry) throws -> Entry?) async throws -> Int

    /// The moment and word count (`Entry.wordCount`) of every entry of the diary (not the trash)
    /// written from `from` (inclusive) until `until` (exclusive), in Unix milliseconds.
    func tallies(from: Int64, until: Int64) async throws -> [EntryTally]

    /// How many entries are in the diary, not counting the trash.
    func count() async throws -> Int

    /// A number that goes up with every write of an entry of this diary or its trash, whoever
    /// made it: another process or instance too.
    func changeCount() async throws -> Int64
}

extension EntryRows {
    /// The whole diary, newest first.
    public func list(after cursor: EntryCursor?, limit: Int) async throws -> EntryPage {
        try await list(after: cursor, limit: limit, filter: .all)
    }
}

/// A tag of the diary and how many entries have it.
public struct TagCount: Sendable, Hashable, Encodable {
    public var tag: String
    public var count: Int

    public init(tag: String, count: Int) {
        self.tag = tag
        self.count = count
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
