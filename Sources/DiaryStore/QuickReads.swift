import Foundation
import GRDB
import Synchronization

/// Read-only connections for the busiest short reads (a page of the list, one entry, who a
/// token belongs to), run right on the caller's thread when one is free.
///
/// Going through GRDB's pool costs two thread hops a read (to a reader's queue and back), and
/// on two cores those hops were most of a list page's time. Running on the caller's thread is
/// only safe if it can never wait: an earlier version blocked Swift's cooperative threads on the
/// pool and deadlocked under load (long searches held every reader; the threads that would have
/// freed them were the blocked ones). So a quick read only *tries* its connections, each behind
/// its own lock; when all are in use it returns nil and the caller goes through the pool. A
/// connection is held for one statement, never across an `await`.
final class QuickReads: Sendable {
    private let connections: [Connection]

    /// One connection per core: at most that many threads run Swift tasks at once.
    init(path: String, count: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        connections = try (0..<max(1, count)).map { _ in
            Connection(queue: try DatabaseQueue(path: path, configuration: configuration))
        }
    }

    /// The result of `work` on a free connection, or `.busy` when none is free.
    func tryRead<T: Sendable>(_ work: (Database) throws -> T) throws -> Attempt<T> {
        for connection in connections {
            let result: Result<T, Error>? = connection.queue.withLockIfAvailable { queue in
                Result { try queue.inDatabase(work) }
            }
            if let result { return .done(try result.get()) }
        }
        return .busy
    }

    /// A connection, with the lock that makes it one caller's at a time.
    private final class Connection: Sendable {
        let queue: Mutex<DatabaseQueue>
        init(queue: DatabaseQueue) { self.queue = Mutex(queue) }
    }

    enum Attempt<T> {
        case done(T)
        case busy
    }
}
