import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Moves the words of entries just written into the search index proper, in the background, so
/// that no save waits for it.
///
/// PostgreSQL adds the words of a row written anew to a GIN index's pending list (quick to
/// append: a save of an entry's text writes its row anew, with all its words), and merges that
/// list into the index in one go once it passes 4 MB, inside whichever statement passed it.
/// Under 64 writers that statement was a batch of saves (`ChangeGatherer`): 230 to 420 ms, a
/// p99 of 300 ms where the p50 was 12. Without the list (`fastupdate = off`) a save of a real
/// entry (some 180 words and prefixes) takes 1.5 ms of PostgreSQL's time instead of 0.35, so the
/// list stays, and the merge is asked for here, on a pooled connection, within a second of this
/// instance's writes (and once at start, for a list left by others): 40 to 180 ms under that
/// load, which no save waits for (PostgreSQL lets writes append while a merge runs). Searches,
/// which read the whole list, gain too. Several instances each ask; a second merge waits for the
/// first, then finds little.
final class SearchIndexUpkeep: Sendable {
    /// How often to look for writes of this instance, and so the most the list gathers between merges.
    let interval: Duration
    /// How many of this instance's writes (`ChangeFeed.writesHere`) the merges so far began
    /// after, and how many of the list's pages they moved (for tests).
    let mergedAfter = Atomic<Int>(0)
    let pages = Atomic<Int>(0)

    init(interval: Duration = .seconds(1)) {
        self.interval = interval
    }

    /// Runs until the task is cancelled. A merge that fails is asked for again after a wait
    /// that doubles, up to `longestWait` (PostgreSQL away: no pool woken every second for it),
    /// and the first failure of a run of them is logged. A merge that is not allowed (the
    /// server's user does not own the index) is not asked for again: PostgreSQL then merges
    /// inside the writes, as it does by default.
    func run(_ database: PostgresDatabase) async {
        var seen = -1  // a merge at start, for a list left by writers before this one
        var wait = interval
        var failing = false
        while !Task.isCancelled {
            do { try await Task.sleep(for: wait) } catch { return }
            let writes = database.feed.writesHere.load(ordering: .relaxed)
            guard writes != seen else { continue }
            do {
                let moved = try await database.withConnection { [logger = database.logger] connection -> Int64? in
                    do {
                        var moved: Int64 = 0
                        let rows = try await connection.query("SELECT gin_clean_pending_list('entry_words'::regclass)", logger: logger)
                        for try await pages in rows.decode(Int64.self) { moved = pages }
                        return moved
                    } catch where PostgresFailure.state(of: error) == "42501" {
                        return nil  // not the index's owner
                    }
                }
                guard let moved else {
                    database.logger.notice("The search index's new words are merged inside saves: \(database.address.user) does not own the index entry_words.")
                    return
                }
                seen = writes
                wait = interval
                failing = false
                mergedAfter.store(writes, ordering: .relaxed)
                pages.add(Int(moved), ordering: .relaxed)
            } catch {
                if !failing {
                    database.logger.warning("The search index's new words could not be merged; trying again later: \(String(describing: error))")
                }
                failing = true
                wait = min(wait * 2, Self.longestWait)
            }
        }
    }

    /// The longest wait between two merges that failed.
    static let longestWait: Duration = .seconds(30)
}
