import Foundation
import GRDB
import Synchronization

/// Commits the writes that arrive together in one transaction: one sync of the WAL to disk for
/// all of them, instead of one each.
///
/// SQLite has one writer, and every commit waits for the disk (`synchronous = FULL`: a saved
/// entry survives a power cut). With many writers at once, autosaves queued behind each other's
/// syncs: 64 clients saw a p99 of 400 ms. Here, while one batch commits, the next one gathers.
///
/// A write that fails (a conflict, a blank entry) fails alone: its caller gets its error and
/// the others commit. A caller hears of success only after the batch's commit is on disk, so
/// nothing acknowledged can be lost.
///
/// A batch first runs its writes one after another in a plain transaction, and changes the
/// search index for all of them at its end (`SearchIndexChanges`). Only when one of them fails
/// is the transaction rolled back and the batch run again, each write in its own savepoint with
/// its own index changes. Savepoints are not free with a search index: at each one SQLite calls
/// FTS5's `xSavepoint`, which writes the tokens gathered so far out as a new index segment; a
/// segment per write, and FTS5's merging of them, were most of the writer's time.
final class GroupCommit: Sendable {
    /// A queued write: runs inside the batch's transaction and says how to answer its caller
    /// once the batch is committed; `fail` answers it with an error.
    private struct Job: Sendable {
        let run: @Sendable (Database) throws -> @Sendable () -> Void
        let fail: @Sendable (any Error) -> Void
    }

    private struct Queue {
        var jobs: [Job] = []
        var committing = false
        /// How many writes the last batch held: a sign of how many writers there are now.
        var lastBatch = 0
    }

    private let pool: DatabasePool
    private let searchIndex: SearchIndexChanges
    private let queue = Mutex(Queue())

    init(pool: DatabasePool, searchIndex: SearchIndexChanges) {
        self.pool = pool
        self.searchIndex = searchIndex
    }

    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let job = Job(
                run: { db in
                    let value = try work(db)
                    return { continuation.resume(returning: value) }
                },
                fail: { error in continuation.resume(throwing: error) })
            let startsBatch = queue.withLock { queue in
                queue.jobs.append(job)
                if queue.committing { return false }
                queue.committing = true
                return true
            }
            if startsBatch { commitNextBatch() }
        }
    }

    /// Commits what is queued, then whatever arrived meanwhile, until nothing is left.
    private func commitNextBatch() {
        pool.asyncWriteWithoutTransaction { db in
            // Taken here, on the writer, so the writes that came during the hop join too.
            guard var jobs = self.takeJobs(endingWhenNone: true) else { return }
            if jobs.count < Self.fullBatch && self.queue.withLock({ $0.lastBatch }) >= Self.busyBatch {
                // Many writers at once: wait a moment for more of them to share this commit
                // (PostgreSQL's commit_delay). Each commit costs the same however many writes
                // it holds (BEGIN, the index's flush, the log write and its sync), and under
                // load batches had a median of three writes.
                usleep(Self.commitDelayMicroseconds)
                jobs += self.takeJobs(endingWhenNone: false) ?? []
            }
            self.queue.withLock { $0.lastBatch = jobs.count }
            let answers: [@Sendable () -> Void]
            do {
                answers = try self.commitTogether(jobs, db)
            } catch let failure as TransactionNotBegun {
                // The file is locked by another process, or unwritable: running the writes
                // again would only wait as long again.
                answers = jobs.map { job in { job.fail(failure.error) } }
            } catch {
                do {
                    answers = try self.commitEachInSavepoint(jobs, db)
                } catch {
                    answers = jobs.map { job in { job.fail(error) } }
                }
            }
            for answer in answers { answer() }
            self.commitNextBatch()
        }
    }

    /// A batch waits for more only after one of at least `busyBatch` writes, and only while it
    /// has fewer than `fullBatch`: a lone writer's save is never held back.
    private static let busyBatch = 4, fullBatch = 16
    private static let commitDelayMicroseconds: UInt32 = 150

    /// The queued writes; with `endingWhenNone`, an empty queue ends this run of batches.
    private func takeJobs(endingWhenNone: Bool) -> [Job]? {
        queue.withLock { queue in
            let jobs = queue.jobs
            queue.jobs = []
            if jobs.isEmpty {
                if endingWhenNone { queue.committing = false }
                return nil
            }
            return jobs
        }
    }

    /// The usual case: every write succeeds, and none needs a savepoint. Any error rolls the
    /// whole batch back, to be run again by `commitEachInSavepoint`.
    private func commitTogether(_ jobs: [Job], _ db: Database) throws -> [@Sendable () -> Void] {
        var answers: [@Sendable () -> Void] = []
        answers.reserveCapacity(jobs.count)
        var begun = false
        do {
            try db.inTransaction(.immediate) {
                begun = true
                for job in jobs { answers.append(try job.run(db)) }
                try searchIndex.apply(db)
                return .commit
            }
        } catch {
            searchIndex.discard()
            throw begun ? error : TransactionNotBegun(error: error)
        }
        return answers
    }

    /// The batch's transaction could not even begin.
    private struct TransactionNotBegun: Error {
        let error: any Error
    }

    /// A batch in which a write failed: each write on its own, in a savepoint, so the one that
    /// fails is rolled back alone and its caller gets its error.
    private func commitEachInSavepoint(_ jobs: [Job], _ db: Database) throws -> [@Sendable () -> Void] {
        var answers: [@Sendable () -> Void] = []
        answers.reserveCapacity(jobs.count)
        try db.inTransaction(.immediate) {
            for job in jobs {
                do {
                    var answer: (@Sendable () -> Void)?
                    try db.inSavepoint {
                        answer = try job.run(db)
                        try searchIndex.apply(db)
                        return .commit
                    }
                    answers.append(answer!)
                } catch {
                    searchIndex.discard()
                    // An error SQLite ends the whole transaction for (a full disk, an I/O
                    // error) leaves none to commit the others in: fail the batch.
                    guard db.isInsideTransaction else { throw error }
                    answers.append { job.fail(error) }
                }
            }
            return .commit
        }
        return answers
    }
}
