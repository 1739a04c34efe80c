import AsyncHTTPClient
import DiaryCore
import Foundation
import NIOCore

/// One GET to a weather provider, bounded in time and in size, with its failures in
/// `WeatherError`'s words. The URL (which may hold an API key) never goes into an error.
struct WeatherHTTP: Sendable {
    var client: HTTPClient = .shared
    var timeout: Duration = .seconds(4)
    /// Real answers are a few kilobytes.
    var maximumBytes = 64 * 1024

    func getJSON(_ url: URL) async throws(WeatherError) -> Any {
        let client = self.client
        let maximumBytes = self.maximumBytes
        let (seconds, attoseconds) = timeout.components
        // The client's own deadline too, so that a hung request is torn down, not just abandoned.
        let deadline = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let work: @Sendable () async throws -> Data = {
            let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: deadline)
            switch response.status.code {
            case 200: break
            case 401, 403: throw WeatherError.unauthorized
            default: throw WeatherError.status(Int(response.status.code))
            }
            if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maximumBytes {
                throw WeatherError.tooLarge
            }
            do {
                return Data(try await response.body.collect(upTo: maximumBytes).readableBytesView)
            } catch is NIOTooManyBytesError {
                throw WeatherError.tooLarge
            }
        }
        let data: Data
        do {
            data = try await withDeadline(timeout, work)
        } catch let error as WeatherError {
            throw error
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            // The client's own deadline can fire a moment before ours: the same timeout.
            throw .timedOut
        } catch {
            throw .unreachable(String(describing: type(of: error)))
        }
        do {
            return try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .malformed("not JSON")
        }
    }
}

/// Runs `work`, giving up with `WeatherError.timedOut` after `timeout`: the whole lookup,
/// connection, headers and body, not just until the first byte.
func withDeadline<T: Sendable>(_ timeout: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw WeatherError.timedOut
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
