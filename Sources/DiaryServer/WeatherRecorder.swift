import DiaryCore
import Logging
import Synchronization

/// Looks up the weather of a new entry's moment and attaches it, after the entry is stored.
///
/// The save never waits for it: a slow or failing provider costs the writer nothing, and is
/// logged (without the place) rather than reported to the client. At most `maximumLookups` run
/// at once: each holds a task and a connection to the provider for up to its time limit, and
/// a client creating entries as fast as it can must not pile them up; beyond, an entry simply
/// has no weather, as when the provider fails.
struct WeatherRecorder: Sendable {
    let provider: any WeatherProvider
    let logger: Logger
    static let maximumLookups = 32
    private let running = Running()

    init(provider: any WeatherProvider, logger: Logger) {
        self.provider = provider
        self.logger = logger
    }

    /// Starts the lookup and returns at once.
    func record(for entry: Entry, at place: Coordinates, in store: Diary) {
        let provider = provider, logger = logger, running = running
        guard running.count.add(1, ordering: .relaxed).newValue <= Self.maximumLookups else {
            running.count.subtract(1, ordering: .relaxed)
            logger.warning("No weather for a new entry", metadata: ["provider": "\(provider.name)", "reason": "too many lookups at once"])
            return
        }
        Task {
            defer { running.count.subtract(1, ordering: .relaxed) }
            do {
                let weather = try await provider.currentWeather(at: place)
                try await store.attachWeather(weather, to: entry.id)
            } catch {
                logger.warning("No weather for a new entry", metadata: ["provider": "\(provider.name)", "reason": "\(error)"])
            }
        }
    }

    private final class Running: Sendable {
        let count = Atomic<Int>(0)
    }
}
