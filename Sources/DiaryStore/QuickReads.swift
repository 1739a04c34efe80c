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
/// its own lock; when all are in use it says so and the caller goes through the pool. A
/// connection is held for one statement, never across an `await`.
final class QuickReads: Sendable {
    private let connections: [Connection]

    /// One connection per core: at most that many threads run Swift tasks at once. Each opens
    /// on its first read, so a command that reads once opens none of them.
    init(path: String, count: Int = ProcessInfo.processInfo.activeProcessorCount) {
        connections = (0..<max(1, count)).map { _ in Connection(path: path) }
    }

    /// The result of `work` on a free connection, or `.busy` when none is free.
    func tryRead<T: Sendable>(_ work: (Database) throws -> T) throws -> Attempt<T> {
        for connection in connections {
            let result: Result<T, Error>?? = connection.queue.withLockIfAvailable { queue in
                if queue == nil { queue = connection.open() }
                guard let queue else { return nil }  // could not open: the pool answers instead
                return Result { try queue.inDatabase(work) }
            }
            if let result, let result { return .done(try result.get()) }
        }
        return .busy
    }

    enum Attempt<T> {
        case done(T)
        case busy
    }

    /// A connection, opened when first needed, with the lock that makes it one caller's at a time.
    private final class Connection: Sendable {
        let path: String
        let queue = Mutex<DatabaseQueue?>(nil)

        init(path: String) { self.path = path }

        func open() -> DatabaseQueue? {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            return try? DatabaseQueue(path: path, configuration: configuration)
        }
    }
}
