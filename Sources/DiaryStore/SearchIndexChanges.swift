import Foundation
import DiaryCore
import GRDB
import Synchronization

/// The search index's share of the writes in one transaction, made together just before it
/// commits, in rowid order.
///
/// FTS5 gathers the tokens of a transaction in memory and writes them out as one new index
/// segment at commit, but only while rows come in increasing rowid order: a row at or below the
/// last one written (a second save of the same entry, an older entry saved after a newer one)
/// makes it write out what it has gathered first. Autosaves of a batch in arrival order did that
/// at nearly every write: a segment each, and FTS5's merging of them, which was most of the
/// writer's time. So the entry writes note their rows here, and `apply` changes the index
/// once per row, lowest rowid first: one segment per batch.
///
/// Only the writer's queue touches it; the lock makes that safe to say to the compiler.
final class SearchIndexChanges: Sendable {
    /// A row's words: as the index holds them now (nil: not indexed), and as they should be.
    private struct Change {
        var indexed: (title: String, body: String)?
        var wanted: (title: String, body: String)?
    }

    /// `apply` runs early when this many rows are waiting, so a large import does not keep a
    /// second copy of its text. Rows of an import come in rowid order, so that costs nothing.
    private static let limit = 512

    private let pending = Mutex<[Int64: Change]>([:])

    /// Notes that row `rowid`'s words go from `old` (what was stored, nil for a new row) to
    /// `new` (nil when the row is deleted).
    func change(_ rowid: Int64, from old: (title: String, body: String)?, to new: (title: String, body: String)?,
                _ db: Database) throws {
        let count = pending.withLock { pending in
            // The index still holds what it held before this transaction's first change of the row.
            pending[rowid, default: Change(indexed: old)].wanted = new
            return pending.count
        }
        if count >= Self.limit { try apply(db) }
    }

    /// Brings the index up to date with every noted change, lowest rowid first.
    func apply(_ db: Database) throws {
        let changes = pending.withLock { pending in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending.sorted { $0.key < $1.key }
        }
        for (rowid, change) in changes {
            // Compared byte for byte: `==` takes "é" and "e" with an accent for the same, and the
            // index would keep the old form's tokens while a later delete names the new form's.
            if let indexed = change.indexed, let wanted = change.wanted,
               indexed.title.utf8.elementsEqual(wanted.title.utf8), indexed.body.utf8.elementsEqual(wanted.body.utf8) { continue }
            if let indexed = change.indexed {
                try db.cachedStatement(sql: "INSERT INTO entry_search (entry_search, rowid, title, body) VALUES ('delete', ?, ?, ?)")
                    .execute(arguments: [rowid, Self.tokens(of: indexed.title), Self.tokens(of: indexed.body)])
            }
            if let wanted = change.wanted {
                try db.cachedStatement(sql: "INSERT INTO entry_search (rowid, title, body) VALUES (?, ?, ?)")
                    .execute(arguments: [rowid, Self.tokens(of: wanted.title), Self.tokens(of: wanted.body)])
            }
        }
    }

    /// Text as the index takes it. A NUL becomes a space: it separates words as any control
    /// character does, and bound as a C string it would end the text, leaving what follows it
    /// out of the index.
    private static func tokens(of text: String) -> String {
        let indexed = SearchText.indexed(text)
        return indexed.utf8.contains(0) ? indexed.replacingOccurrences(of: "\u{0}", with: " ") : indexed
    }

    /// Forgets the noted changes of a transaction (or savepoint) that is being rolled back.
    func discard() {
        pending.withLock { $0.removeAll(keepingCapacity: true) }
    }
}
