import Foundation
import GRDB

/// Copies the write-ahead log into the database file in the background, so that no save waits
/// for it.
///
/// SQLite does this "checkpoint" itself by default, inside the commit that makes the log pass
/// 1,000 pages, and it ends with a sync of the whole file: 200 ms and more on this machine, while
/// every autosave queued behind that commit waited (the p99 of saves at 64 connections was
/// 234 ms, with a p50 of 14). The server turns that off (`SQLiteDatabase(path:checkpoints:)`) and
/// runs this instead, in two steps:
/// 1. a separate connection checkpoints PASSIVE: it copies (and syncs) what the log holds while
///    commits go on, blocking neither the writer nor the readers;
/// 2. the writer's own connection checkpoints again between two commits: only the few pages
///    written meanwhile are left to copy, and once the log is all copied the next commit starts
///    it from the beginning. Without this step, under steady writes the log never caught up and
///    grew without end (750 MB in 20 s of autosaves).
/// Short-lived command-line processes keep SQLite's default.
public struct BackgroundCheckpoints: Sendable {
    let path: String
    let pool: DatabasePool
    /// How often to look at the log, and how large it may grow before it is copied back.
    public var interval: Duration
    public var threshold: Int

    /// Runs until the task is cancelled. A failed checkpoint (another process checkpointing,
    /// a full disk) is tried again at the next look; the log is never lost, only longer.
    public func run() async {
        guard let connection = try? DatabaseQueue(path: path) else { return }
        let log = path + "-wal"
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            let size = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
            guard size > threshold else { continue }
            // The file keeps its size once reset (up to the 64 MiB limit), so it is the frames
            // in it that say whether the writer has anything to finish.
            let frames = try? await connection.writeWithoutTransaction { db in try db.checkpoint(.passive).walFrameCount }
            guard let frames, frames > 0 else { continue }
            _ = try? await pool.writeWithoutTransaction { db in try db.checkpoint(.passive) }
        }
        try? connection.close()
    }
}
