import DiaryCore
import Foundation

/// Which weather provider to ask: a flag, then the environment, then the default, each resolved
/// by `Setting`:
///
/// - `DIARY_WEATHER`: `open-meteo` (the default), `openweather`, or `off`;
/// - `DIARY_OPENWEATHER_KEY`, or `DIARY_OPENWEATHER_KEY_FILE` naming a file that holds it;
/// - `DIARY_OPEN_METEO_URL`, `DIARY_OPENWEATHER_URL`: other base URLs (tests use local servers).
public enum WeatherSettings {
    public static let choices = ["open-meteo", "openweather", "off"]

    static let choiceSetting = Setting<String>(flag: "--weather", variable: "DIARY_WEATHER")
    static let keySetting = Setting<String>(variable: "DIARY_OPENWEATHER_KEY")
    static let keyFileSetting = Setting<String>(variable: "DIARY_OPENWEATHER_KEY_FILE")
    static let openMeteoURL = baseURL("DIARY_OPEN_METEO_URL")
    static let openWeatherURL = baseURL("DIARY_OPENWEATHER_URL")

    /// `--weather`, else `DIARY_WEATHER`, else open-meteo, checked to name a provider (or off):
    /// what `diary serve` checks before it opens anything.
    public static func choice(option: String?, environment: [String: String]) throws -> String {
        let resolved = try choiceSetting.resolve(flag: option.flatMap { $0.isEmpty ? nil : $0 }, environment: environment, default: "open-meteo")
        let name = resolved.value.lowercased()
        guard ["off", "none", "open-meteo", "openmeteo", "openweather"].contains(name) else {
            throw SettingError(source: resolved.source,
                               "\(resolved.source) must be open-meteo, openweather or off: there is no weather provider called \(resolved.value).")
        }
        return name
    }

    /// The provider to use, `nil` when weather is off.
    public static func provider(choice option: String?, environment: [String: String]) throws -> (any WeatherProvider)? {
        switch try choice(option: option, environment: environment) {
        case "off", "none":
            return nil
        case "openweather":
            let key = try apiKey(environment: environment)
            let url = try openWeatherURL.resolve(flag: nil, environment: environment)?.value
            return url.map { OpenWeatherProvider(apiKey: key, baseURL: $0) } ?? OpenWeatherProvider(apiKey: key)
        default:
            let url = try openMeteoURL.resolve(flag: nil, environment: environment)?.value
            return url.map { OpenMeteoProvider(baseURL: $0) } ?? OpenMeteoProvider()
        }
    }

    static func apiKey(environment: [String: String]) throws -> String {
        if let key = try keySetting.resolve(flag: nil, environment: environment)?.value.trimmingCharacters(in: .whitespacesAndNewlines),
           !key.isEmpty {
            return key
        }
        if let path = try keyFileSetting.resolve(flag: nil, environment: environment)?.value {
            guard let data = FileManager.default.contents(atPath: path) else { throw WeatherSettingsError.unreadableKeyFile(path) }
            let key = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !key.isEmpty { return key }
        }
        throw WeatherSettingsError.missingKey
    }

    /// A provider's other base URL (tests use local servers): http or https.
    static func baseURL(_ variable: String) -> Setting<URL> {
        Setting(variable: variable, expected: "an http or https URL") { text in
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else { return nil }
            return url
        }
    }
}

public enum WeatherSettingsError: Error, Equatable, CustomStringConvertible {
    case missingKey
    case unreadableKeyFile(String)

    public var description: String {
        switch self {
        case .missingKey:
            "OpenWeather needs an API key: set DIARY_OPENWEATHER_KEY, or DIARY_OPENWEATHER_KEY_FILE to a file that holds it."
        case .unreadableKeyFile(let path):
            "Cannot read the OpenWeather key file \(path): check that it exists and that you may read it."
        }
    }
}
