import DiaryCore
import Foundation

/// Open-Meteo (https://open-meteo.com): free, no key, the default.
///
/// `GET /v1/forecast?latitude=..&longitude=..&current=temperature_2m,weather_code,is_day`
/// answers `{"current": {"temperature_2m": 3.4, "weather_code": 61, "is_day": 1, …}, …}`,
/// with the weather as a WMO code.
public struct OpenMeteoProvider: WeatherProvider {
    public let name = "open-meteo"
    public var baseURL: URL
    var http = WeatherHTTP()

    public init(baseURL: URL = URL(string: "https://api.open-meteo.com")!, timeout: Duration = .seconds(4)) {
        self.baseURL = baseURL
        http.timeout = timeout
    }

    public func currentWeather(at place: Coordinates) async throws(WeatherError) -> Weather {
        var url = URLComponents(url: baseURL.appendingPathComponent("v1/forecast"), resolvingAgainstBaseURL: false)!
        url.queryItems = [
            URLQueryItem(name: "latitude", value: String(place.latitude)),
            URLQueryItem(name: "longitude", value: String(place.longitude)),
            URLQueryItem(name: "current", value: "temperature_2m,weather_code,is_day"),
        ]
        let json = try await http.getJSON(url.url!)
        guard let current = (json as? [String: Any])?["current"] as? [String: Any],
              let code = current["weather_code"] as? Int
        else { throw .malformed("no current.weather_code") }
        guard let (condition, description) = Self.wmo[code] else { throw .malformed("unknown WMO code \(code)") }
        return Weather(provider: name, condition: condition, description: description,
                       isDay: (current["is_day"] as? Int ?? 1) == 1,
                       temperatureCelsius: current["temperature_2m"] as? Double)
    }

    /// WMO weather interpretation codes, as Open-Meteo documents them.
    static let wmo: [Int: (WeatherCondition, String)] = [
        0: (.clear, "Clear sky"), 1: (.clear, "Mainly clear"), 2: (.clouds, "Partly cloudy"), 3: (.clouds, "Overcast"),
        45: (.mist, "Fog"), 48: (.mist, "Depositing rime fog"),
        51: (.drizzle, "Light drizzle"), 53: (.drizzle, "Moderate drizzle"), 55: (.drizzle, "Dense drizzle"),
        56: (.drizzle, "Light freezing drizzle"), 57: (.drizzle, "Dense freezing drizzle"),
        61: (.rain, "Slight rain"), 63: (.rain, "Moderate rain"), 65: (.rain, "Heavy rain"),
        66: (.rain, "Light freezing rain"), 67: (.rain, "Heavy freezing rain"),
        71: (.snow, "Slight snow fall"), 73: (.snow, "Moderate snow fall"), 75: (.snow, "Heavy snow fall"), 77: (.snow, "Snow grains"),
        80: (.rain, "Slight rain showers"), 81: (.rain, "Moderate rain showers"), 82: (.rain, "Violent rain showers"),
        85: (.snow, "Slight snow showers"), 86: (.snow, "Heavy snow showers"),
        95: (.thunderstorm, "Thunderstorm"), 96: (.thunderstorm, "Thunderstorm with slight hail"),
        99: (.thunderstorm, "Thunderstorm with heavy hail"),
    ]
}

extension OpenMeteoProvider {
    /// The condition and its words for a WMO weather code; `nil` for a code WMO does not define.
    public static func weather(forWMOCode code: Int) -> (condition: WeatherCondition, description: String)? {
        wmo[code].map { (condition: $0.0, description: $0.1) }
    }
}
