import DiaryCore
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// How long a SIGTERM or Ctrl-C lets the server finish what it is doing. Within the first
/// limit it stops accepting, closes idle connections and answers every request under way (an
/// acknowledged save is on disk before its answer); a request still running then (a client
/// trickling its body, a long search) is cancelled, which has the second limit to end. The
/// whole stays under the 5 seconds a service manager commonly allows before `kill -9`.
public enum ShutdownLimits {
    public static let graceful: Duration = .seconds(3)
    public static let cancellation: Duration = .seconds(1)
}

/// Runs the server until SIGTERM or SIGINT: the HTTP server and the storage's background work
/// (a database file's checkpoints) in one `ServiceGroup`. Services stop in the reverse of their order, so
/// the server stops (and its last saves are written) before the storage's upkeep does.
public func serve(
    storage: any Storage, settings: ServerSettings, logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws {
    var settings = settings
    settings.maxConnections = OpenFileLimit.raise(toServe: settings.maxConnections, logger: logger)
    let app = buildApplication(storage: storage, settings: settings, logger: logger, onServerRunning: onServerRunning)
    var configuration = ServiceGroupConfiguration(
        services: [
            // Upkeep that ends by itself (there is none, or it could not start) is no reason to stop.
            .init(service: StorageUpkeep(storage: storage), successTerminationBehavior: .ignore),
            .init(service: TrashKeeping(storage: storage, days: settings.trashDays, logger: logger), successTerminationBehavior: .ignore),
            .init(service: app),
        ],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger)
    configuration.maximumGracefulShutdownDuration = ShutdownLimits.graceful
    configuration.maximumCancellationDuration = ShutdownLimits.cancellation
    try await ServiceGroup(configuration: configuration).run()
}

/// The storage's background work (`Storage.maintain`) as a service: it runs until the group
/// shuts down.
struct StorageUpkeep: Service {
    let storage: any Storage

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await storage.maintain()
        }
    }
}

/// The trash empties itself: at start and every hour after, what has been in any diary's trash
/// longer than `days` is deleted for good. A failure (the database away) is logged and tried
/// again at the next hour; nothing else waits on it.
struct TrashKeeping: Service {
    let storage: any Storage
    let days: Int?
    let logger: Logger

    static let every: Duration = .seconds(3600)

    func run() async throws {
        guard let days else { return }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let deleted = try await storage.emptyTrashes(deletedBefore: Date(timeIntervalSinceNow: -Double(days) * 86_400))
                    if deleted > 0 { logger.info("Deleted \(deleted) entries that had been in the trash for over \(days) days.") }
                } catch {
                    logger.warning("Could not empty the trash of entries older than \(days) days: \(error). Trying again in an hour.")
                }
                try? await Task.sleep(for: Self.every)
            }
        }
    }
}
