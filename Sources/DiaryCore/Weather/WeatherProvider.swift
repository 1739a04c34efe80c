/// A service that tells the weather at a place, now.
///
/// Implementations talk to a third party, so each lookup is bounded in time and size and
/// fails with a `WeatherError`; a failure only ever means an entry without weather.
public protocol WeatherProvider: Sendable {
    /// The provider's name as stored with the weather: "open-meteo", "openweather".
    var name: String { get }

    /// The current weather at `place`.
    func currentWeather(at place: Coordinates) async throws(WeatherError) -> Weather
}

/// Why a lookup gave no weather. None of these reaches the writer as an error.
public enum WeatherError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The provider refused the key (HTTP 401 or 403).
    case unauthorized
    /// The provider answered with another HTTP status.
    case status(Int)
    /// No answer within the time allowed.
    case timedOut
    /// The answer was larger than any real weather report.
    case tooLarge
    /// The answer was not the documented JSON.
    case malformed(String)
    /// The provider could not be reached.
    case unreachable(String)

    public var description: String {
        switch self {
        case .unauthorized: "the provider refused the API key"
        case .status(let code): "the provider answered HTTP \(code)"
        case .timedOut: "the provider did not answer in time"
        case .tooLarge: "the provider's answer was too large"
        case .malformed(let reason): "the provider's answer was not understood (\(reason))"
        case .unreachable(let reason): "the provider could not be reached (\(reason))"
        }
    }
}
