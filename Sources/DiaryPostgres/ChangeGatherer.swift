import DiaryCore
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Runs the changes of entries that arrive together as one batch: two round trips for all of
/// them instead of two each, and each diary's change count moved once a batch.
///
/// Every save of a diary moved the same `diary_change` row: 64 writers of one diary waited on
/// that row's lock one after another, and each save paid postgres-nio's cost of a statement
/// twice. Here, while one batch runs, the next one gathers. A batch reads every row it needs in
/// one statement, runs each change on its row as read (changes of one entry one after another,
/// each on what the one before made of it, as if they had come one by one), and writes every
/// changed row in one statement, each only while it is still the row that was read
/// (`PreparedBatchStatements.Rewrite`); a row that another write reached first is worked out
/// again, from that write's row, in the next batch. Changes are pure functions, so running one
/// again decides as if it had simply come later.
///
/// A caller hears only after the statement that wrote its change has returned (each statement
/// commits on its own), so nothing acknowledged is lost; and only about what was decided on a
/// row that stands: the answers of an entry's changes (an error too, such as a conflict) wait
/// for its write. A change that throws fails its caller alone; so does a row that PostgreSQL
/// refuses (the batch's rows are then written one by one).
final class ChangeGatherer: Sendable {
    typealias Key = PreparedBatchStatements.Key

    /// A queued change, and how to answer its caller.
    private struct Job: Sendable {
        let key: Key
        let change: @Sendable (Entry) throws -> Entry?
        let answer: @Sendable (Result<Entry, any Error>) -> Void
        var attempts = 0
    }

    private struct Queue {
        var jobs: [Job] = []
        var running = false
    }

    /// What one batch decided: answers to give now, changes to run again, each diary's count.
    private struct Outcome: Sendable {
        var answers: [(job: Int, result: Result<Entry, any Error>)] = []
        var lost: [Int] = []
        var counts: [(owner: UserID, count: Int64)] = []
    }

    /// The most changes a batch takes; the rest wait for the next.
    static let largestBatch = 128
    /// How many times a change is worked out again when other writes keep coming first.
    static let attempts = 100

    private let queue = Mutex(Queue())

    /// Reads the entry at `key`, and writes what `change` makes of it (`nil`: nothing) while
    /// the row is still the one read; the entry as stored afterwards.
    func change(_ key: Key, _ change: @escaping @Sendable (Entry) throws -> Entry?, in database: PostgresDatabase) async throws -> Entry {
        try await withCheckedThrowingContinuation { continuation in
            let job = Job(key: key, change: change, answer: { continuation.resume(with: $0) })
            let starts = queue.withLock { queue in
                queue.jobs.append(job)
                if queue.running { return false }
                queue.running = true
                return true
            }
            if starts { Task { await self.runBatches(database) } }
        }
    }

    /// Runs what is queued, then whatever arrived meanwhile (the changes that lost first), until
    /// nothing is left.
    private func runBatches(_ database: PostgresDatabase) async {
        var again: [Job] = []
        while true {
            let jobs = queue.withLock { queue in
                let taken = Array(queue.jobs.prefix(max(0, Self.largestBatch - again.count)))
                queue.jobs.removeFirst(taken.count)
                if again.isEmpty && taken.isEmpty { queue.running = false }
                return again + taken
            }
            if jobs.isEmpty { return }
            again = await run(jobs, database)
        }
    }

    /// One batch; the changes to run again.
    private func run(_ jobs: [Job], _ database: PostgresDatabase) async -> [Job] {
        let outcome: Outcome
        do {
            outcome = try await database.withConnection { [address = database.address, logger = database.logger] connection in
                try await Self.run(jobs.map { ($0.key, $0.change) }, connection, address, logger)
            }
        } catch {
            for job in jobs { job.answer(.failure(error)) }
            return []
        }
        for (owner, count) in outcome.counts { database.feed.wrote(owner, count: count) }
        for (job, result) in outcome.answers { jobs[job].answer(result) }
        var again: [Job] = []
        for index in outcome.lost {
            var job = jobs[index]
            job.attempts += 1
            if job.attempts < Self.attempts {
                again.append(job)
            } else {
                job.answer(.failure(PostgresFailure(kind: .busy, "An entry kept changing under \(Self.attempts) attempts to save it.")))
            }
        }
        return again
    }

    /// Reads the batch's rows, runs its changes, writes the rows they changed.
    private static func run(_ jobs: [(key: Key, change: @Sendable (Entry) throws -> Entry?)], _ connection: PostgresConnection,
                            _ address: PostgresAddress, _ logger: Logger) async throws -> Outcome {
        var keys: [Key] = []
        var jobsOf: [Key: [Int]] = [:]
        for (index, job) in jobs.enumerated() {
            if jobsOf[job.key] == nil { keys.append(job.key) }
            jobsOf[job.key, default: []].append(index)
        }
        var rows: [Key: PreparedBatchStatements.ReadRow] = [:]
        for try await (key, row) in try await connection.execute(PreparedBatchStatements.Fetch(keys: keys), logger: logger) {
            rows[key] = row
        }
        var outcome = Outcome()
        var writes: [PreparedBatchStatements.Write] = []
        /// The answers that wait for each write.
        var waiting: [[(job: Int, result: Result<Entry, any Error>)]] = []
        for key in keys {
            let indices = jobsOf[key]!
            guard let read = rows[key] else {
                outcome.answers += indices.map { ($0, .failure(EntryError.notFound(key.id.diaryString))) }
                continue
            }
            var entry = read.row.entry
            var changes = 0
            var answers: [(job: Int, result: Result<Entry, any Error>)] = []
            for index in indices {
                do {
                    guard let changed = try jobs[index].change(entry) else {
                        answers.append((index, .success(entry)))
                        continue
                    }
                    if PostgresEntryRow.Difference(entry, changed).any {
                        entry = changed
                        changes += 1
                    }
                    answers.append((index, .success(changed)))
                } catch {
                    answers.append((index, .failure(error)))
                }
            }
            if changes == 0 {
                outcome.answers += answers
            } else {
                writes.append(.init(read: read, entry: entry, textChanged: PostgresEntryRow.Difference(read.row.entry, entry).text,
                                    changes: changes))
                waiting.append(answers)
            }
        }
        guard !writes.isEmpty else { return outcome }
        let written: [Result<Bool, any Error>]
        do {
            let (sequences, counts) = try await write(writes, connection, logger)
            written = writes.map { .success(sequences.contains($0.read.row.sequence)) }
            outcome.counts = counts
        } catch let error as PSQLError where error.serverInfo != nil && writes.count == 1 {
            written = [.failure(PostgresFailure.translating(error, at: address))]
        } catch let error as PSQLError where error.serverInfo != nil {
            // PostgreSQL refused the statement (a row it would not take): nothing of it was
            // written. Each row alone, so that only the refused one's callers hear of it.
            var each: [Result<Bool, any Error>] = []
            for write in writes {
                do {
                    let (sequences, counts) = try await Self.write([write], connection, logger)
                    each.append(.success(!sequences.isEmpty))
                    outcome.counts += counts
                } catch let error as PSQLError where error.serverInfo != nil {
                    each.append(.failure(PostgresFailure.translating(error, at: address)))
                }
            }
            written = each
        }
        for (result, answers) in zip(written, waiting) {
            switch result {
            case .success(true): outcome.answers += answers
            case .success(false): outcome.lost += answers.map(\.job)
            case .failure(let error): outcome.answers += answers.map { ($0.job, .failure(error)) }
            }
        }
        return outcome
    }

    /// Runs the batch's `Rewrite`: the rows written, and each diary's new count. A deadlock or a
    /// serialization failure (another instance's batch writing the same rows in another order)
    /// leaves nothing written: every row is lost, to be run again.
    private static func write(_ writes: [PreparedBatchStatements.Write], _ connection: PostgresConnection,
                              _ logger: Logger) async throws -> (Set<Int64>, [(owner: UserID, count: Int64)]) {
        var sequences = Set<Int64>()
        var counts: [(owner: UserID, count: Int64)] = []
        do {
            // In the order of their keys (`seq`): under the plan PostgreSQL makes of `Rewrite` (a
            // nested loop over the batch's rows, in their order), batches of several instances
            // then lock the rows they share in the same order, and wait for each other rather than
            // deadlock (which PostgreSQL finds only after `deadlock_timeout`, a second). Under
            // another plan a deadlock stays possible; its rows are then run again, as below.
            let ordered = writes.sorted { $0.read.row.sequence < $1.read.row.sequence }
            for try await (sequence, owner, count) in try await connection.execute(
                PreparedBatchStatements.Rewrite(writes: ordered), logger: logger) {
                if let sequence {
                    sequences.insert(sequence)
                } else if let owner, let count {
                    counts.append((UserID(rawValue: owner), count))
                }
            }
        } catch let error where PostgresFailure.state(of: error).map(PostgresFailure.retried.contains) == true {
            return ([], [])
        }
        return (sequences, counts)
    }
}
