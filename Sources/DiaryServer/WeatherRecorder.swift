import DiaryCore
import Logging

/// Looks up the weather of a new entry's moment and attaches it, after the entry is stored.
///
/// The save never waits for it: a slow or failing provider costs the writer nothing, and is
/// logged (without the place) rather than reported to the client.
struct WeatherRecorder: Sendable {
    let provider: any WeatherProvider
    let logger: Logger

    /// Starts the lookup and returns at once.
    func record(for entry: Entry, at place: Coordinates, in store: some EntryStore) {
        let provider = provider, logger = logger
        Task {
            do {
                let weather = try await provider.currentWeather(at: place)
                try await store.attachWeather(weather, to: entry.id)
            } catch {
                logger.warning("No weather for a new entry", metadata: ["provider": "\(provider.name)", "reason": "\(error)"])
            }
        }
    }
}
