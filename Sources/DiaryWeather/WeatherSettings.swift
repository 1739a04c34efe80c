import DiaryCore
import Foundation

/// Which weather provider to ask, resolved in one place from a flag, then the environment:
///
/// - `DIARY_WEATHER`: `open-meteo` (the default), `openweather`, or `off`;
/// - `DIARY_OPENWEATHER_KEY`, or `DIARY_OPENWEATHER_KEY_FILE` naming a file that holds it;
/// - `DIARY_OPEN_METEO_URL`, `DIARY_OPENWEATHER_URL`: other base URLs (tests use local servers).
public enum WeatherSettings {
    public static let choices = ["open-meteo", "openweather", "off"]

    /// The provider to use, `nil` when weather is off.
    public static func provider(choice: String?, environment: [String: String]) throws -> (any WeatherProvider)? {
        let choice = (choice ?? environment["DIARY_WEATHER"]).flatMap { $0.isEmpty ? nil : $0.lowercased() } ?? "open-meteo"
        switch choice {
        case "off", "none":
            return nil
        case "open-meteo", "openmeteo":
            let url = try baseURL(environment["DIARY_OPEN_METEO_URL"], variable: "DIARY_OPEN_METEO_URL")
            return url.map { OpenMeteoProvider(baseURL: $0) } ?? OpenMeteoProvider()
        case "openweather":
            let key = try apiKey(environment: environment)
            let url = try baseURL(environment["DIARY_OPENWEATHER_URL"], variable: "DIARY_OPENWEATHER_URL")
            return url.map { OpenWeatherProvider(apiKey: key, baseURL: $0) } ?? OpenWeatherProvider(apiKey: key)
        default:
            throw WeatherSettingsError.unknownProvider(choice)
        }
    }

    static func apiKey(environment: [String: String]) throws -> String {
        if let key = environment["DIARY_OPENWEATHER_KEY"]?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty {
            return key
        }
        if let path = environment["DIARY_OPENWEATHER_KEY_FILE"], !path.isEmpty {
            guard let data = FileManager.default.contents(atPath: path) else { throw WeatherSettingsError.unreadableKeyFile(path) }
            let key = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !key.isEmpty { return key }
        }
        throw WeatherSettingsError.missingKey
    }

    static func baseURL(_ text: String?, variable: String) throws -> URL? {
        guard let text, !text.isEmpty else { return nil }
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
            throw WeatherSettingsError.badURL(variable)
        }
        return url
    }
}

public enum WeatherSettingsError: Error, Equatable, CustomStringConvertible {
    case unknownProvider(String)
    case missingKey
    case unreadableKeyFile(String)
    case badURL(String)

    public var description: String {
        switch self {
        case .unknownProvider(let name):
            "There is no weather provider called \(name): choose open-meteo, openweather or off."
        case .missingKey:
            "OpenWeather needs an API key: set DIARY_OPENWEATHER_KEY, or DIARY_OPENWEATHER_KEY_FILE to a file that holds it."
        case .unreadableKeyFile(let path):
            "Cannot read the OpenWeather key file \(path): check that it exists and that you may read it."
        case .badURL(let variable):
            "\(variable) must be an http or https URL."
        }
    }
}
