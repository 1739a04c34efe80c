import Foundation

/// How long `diary new --location` waits for the weather after the entry is saved: a writer at
/// a terminal is not held for seconds by a slow provider or a machine that is offline.
enum WeatherLookup {
    static let patience: Duration = .milliseconds(1_500)
    static let patienceDescription = "1.5 seconds"

    struct TooSlow: Error {}

    /// `work`'s result, or `TooSlow` when it takes longer than `limit` (the work is cancelled).
    static func within<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw TooSlow()
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}
