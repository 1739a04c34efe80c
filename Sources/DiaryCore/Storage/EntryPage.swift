import Foundation

/// A page of a list, and where the next one starts.
public struct EntryPage: Sendable, Equatable {
    public var entries: [EntrySummary]
    /// `nil` on the last page.
    public var nextCursor: EntryCursor?

    public init(entries: [EntrySummary], nextCursor: EntryCursor?) {
        self.entries = entries
        self.nextCursor = nextCursor
    }
}

/// Whole entries, for an export, and where the next batch starts.
public struct EntryBatch: Sendable, Equatable {
    public var entries: [Entry]
    /// `nil` on the last batch.
    public var nextCursor: EntryCursor?

    public init(entries: [Entry], nextCursor: EntryCursor?) {
        self.entries = entries
        self.nextCursor = nextCursor
    }
}

/// The position of the last row of a page: its sort time and the entry's id, which breaks ties
/// between entries written in the same millisecond (the store finds where that entry stands).
///
/// Lists continue *after* a cursor (keyset pagination) instead of skipping rows with OFFSET,
/// so page 5,000 of a 20-year diary costs what page 1 does. A cursor names only what its diary
/// already shows (a time and an id of its own): a row number of the file, which every diary's
/// writes move, told one person how much everyone else was writing.
public struct EntryCursor: Sendable, Hashable {
    public var time: Int64
    /// The last entry of the page; `nil` before the first row (or after the last).
    public var entry: UUID?

    public init(time: Int64, entry: UUID?) {
        self.time = time
        self.entry = entry
    }

    /// The cursor as clients see it: opaque text.
    public var token: String { "\(time).\(entry?.diaryString ?? "")" }

    /// Reads a token made by `token`; `nil` when it is not one.
    public init?(token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let time = Int64(parts[0]), let entry = UUID(diaryString: String(parts[1])) else {
            return nil
        }
        self.init(time: time, entry: entry)
    }
}
