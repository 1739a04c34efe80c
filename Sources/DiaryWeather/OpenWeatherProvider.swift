import DiaryCore
import Foundation

/// OpenWeather (https://openweathermap.org), the original app's provider; needs an API key.
///
/// `GET /data/2.5/weather?lat=..&lon=..&appid=KEY&units=metric` answers
/// `{"weather": [{"main": "Rain", "description": "moderate rain", "icon": "10d"}], "main": {"temp": 12.3}, …}`.
public struct OpenWeatherProvider: WeatherProvider {
    public let name = "openweather"
    public var baseURL: URL
    /// Kept out of every log line and error: only the request URL carries it.
    let apiKey: String
    var http = WeatherHTTP()

    public init(apiKey: String, baseURL: URL = URL(string: "https://api.openweathermap.org")!, timeout: Duration = .seconds(4)) {
        self.apiKey = apiKey
        self.baseURL = baseURL
        http.timeout = timeout
    }

    public func currentWeather(at place: Coordinates) async throws(WeatherError) -> Weather {
        var url = URLComponents(url: baseURL.appendingPathComponent("data/2.5/weather"), resolvingAgainstBaseURL: false)!
        url.queryItems = [
            URLQueryItem(name: "lat", value: String(place.latitude)),
            URLQueryItem(name: "lon", value: String(place.longitude)),
            URLQueryItem(name: "appid", value: apiKey),
            URLQueryItem(name: "units", value: "metric"),
        ]
        let json = try await http.getJSON(url.url!)
        guard let object = json as? [String: Any], let first = (object["weather"] as? [[String: Any]])?.first,
              let main = first["main"] as? String
        else { throw .malformed("no weather[0].main") }
        guard let condition = Self.conditions[main] else { throw .malformed("unknown condition \(main.prefix(30))") }
        let icon = first["icon"] as? String ?? "01d"
        return Weather(provider: name, condition: condition, description: first["description"] as? String ?? main.lowercased(),
                       isDay: !icon.hasSuffix("n"),
                       temperatureCelsius: (object["main"] as? [String: Any])?["temp"] as? Double)
    }

    /// `weather[0].main` values from OpenWeather's condition codes; the "Atmosphere" group
    /// (7xx: mist, haze, fog, dust…) all read as mist.
    static let conditions: [String: WeatherCondition] = [
        "Clear": .clear, "Clouds": .clouds, "Rain": .rain, "Drizzle": .drizzle, "Snow": .snow,
        "Thunderstorm": .thunderstorm, "Mist": .mist, "Smoke": .mist, "Haze": .mist, "Dust": .mist,
        "Fog": .mist, "Sand": .mist, "Ash": .mist, "Squall": .mist, "Tornado": .mist,
    ]
}
