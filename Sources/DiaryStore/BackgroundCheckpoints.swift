import Foundation
import GRDB

/// Copies the write-ahead log into the database file in the background, so that no save waits
/// for it.
///
/// SQLite does this "checkpoint" itself by default, inside the commit that makes the log pass
/// 1,000 pages, and it ends with a sync of the whole file: 200 ms and more on this machine, while
/// every autosave queued behind that commit waited (the p99 of saves at 64 connections was
/// 234 ms, with a p50 of 14). The server turns that off (`DiaryDatabase(path:checkpoints:)`) and
/// runs this instead: a separate connection that checkpoints PASSIVE, which never blocks the
/// writer or the readers. Short-lived command-line processes keep SQLite's default.
public struct BackgroundCheckpoints: Sendable {
    let path: String
    /// How often to look at the log, and how large it may grow before it is copied back.
    public var interval: Duration
    public var threshold: Int

    init(path: String, interval: Duration, threshold: Int) {
        self.path = path
        self.interval = interval
        self.threshold = threshold
    }

    /// Runs until the task is cancelled. A failed checkpoint (another process checkpointing,
    /// a full disk) is tried again at the next look; the log is never lost, only longer.
    public func run() async {
        guard let connection = try? DatabaseQueue(path: path) else { return }
        let log = path + "-wal"
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            let size = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
            guard size > threshold else { continue }
            _ = try? await connection.writeWithoutTransaction { db in try db.checkpoint(.passive) }
        }
        try? connection.close()
    }
}
