import DiaryCore
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
