import DiaryCore
import DiaryWeather
import Foundation
import Testing

@Suite("Weather providers over real HTTP")
struct WeatherProviderTests {
    let seoul = Coordinates(latitude: 37.5665, longitude: 126.978)!

    @Test("Open-Meteo's documented answer becomes rain at night, 3.4 °C")
    func openMeteo() async throws {
        try await FakeWeatherServer.withServer { base in
            let weather = try await OpenMeteoProvider(baseURL: URL(string: base + "/ok")!).currentWeather(at: seoul)
            #expect(weather == Weather(provider: "open-meteo", condition: .rain, description: "Slight rain", isDay: false, temperatureCelsius: 3.4))
            #expect(weather.icon == "rain-night")
        }
    }

    @Test("OpenWeather's documented answer becomes moderate rain by day, 12.3 °C")
    func openWeather() async throws {
        try await FakeWeatherServer.withServer { base in
            let weather = try await OpenWeatherProvider(apiKey: "test-key", baseURL: URL(string: base + "/ok")!).currentWeather(at: seoul)
            #expect(weather == Weather(provider: "openweather", condition: .rain, description: "moderate rain", isDay: true, temperatureCelsius: 12.3))
        }
    }

    @Test("A bad OpenWeather key is reported as such, and the key is in no error")
    func badKey() async throws {
        try await FakeWeatherServer.withServer { base in
            let provider = OpenWeatherProvider(apiKey: "secret-wrong-key", baseURL: URL(string: base + "/ok")!)
            do {
                _ = try await provider.currentWeather(at: seoul)
                Issue.record("a bad key gave weather")
            } catch {
                #expect(error as? WeatherError == .unauthorized)
                #expect(!String(describing: error).contains("secret-wrong-key"))
            }
        }
    }

    @Test("Each way a provider can fail is a WeatherError, within the timeout", arguments: [
        ("error500", WeatherError.status(500)),
        ("unauthorized", .unauthorized),
        ("malformed", .malformed("not JSON")),
        ("huge", .tooLarge),
        ("hang", .timedOut),
    ])
    func failures(scenario: String, expected: WeatherError) async throws {
        try await FakeWeatherServer.withServer { base in
            let provider = OpenMeteoProvider(baseURL: URL(string: base + "/" + scenario)!, timeout: .seconds(3))
            let started = ContinuousClock.now
            await #expect(throws: expected) { try await provider.currentWeather(at: seoul) }
            // Well before the hanging server's 8 s answer, with room for a loaded machine.
            #expect(ContinuousClock.now - started < .seconds(6))
        }
    }

    @Test("Every WMO code Open-Meteo documents maps to a condition with an icon")
    func wmoCodes() async throws {
        for code in [0, 1, 2, 3, 45, 48, 51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 71, 73, 75, 77, 80, 81, 82, 85, 86, 95, 96, 99] {
            #expect(OpenMeteoProvider.weather(forWMOCode: code) != nil, "WMO \(code)")
        }
        #expect(OpenMeteoProvider.weather(forWMOCode: 95)?.condition == .thunderstorm)
        #expect(OpenMeteoProvider.weather(forWMOCode: 4) == nil)
    }

    @Test("Choosing a provider: the default needs no key; OpenWeather without one says how to give it")
    func settings() throws {
        #expect(try WeatherSettings.provider(choice: nil, environment: [:])?.name == "open-meteo")
        #expect(try WeatherSettings.provider(choice: "off", environment: [:]) == nil)
        #expect(throws: WeatherSettingsError.missingKey) { try WeatherSettings.provider(choice: "openweather", environment: [:]) }
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString)")
        try Data("from-a-file\n".utf8).write(to: keyFile)
        let provider = try WeatherSettings.provider(choice: nil, environment: ["DIARY_WEATHER": "openweather", "DIARY_OPENWEATHER_KEY_FILE": keyFile.path])
        #expect(provider?.name == "openweather")
        #expect(throws: SettingError.self) { try WeatherSettings.provider(choice: "sunny", environment: [:]) }
        let error = try #require(throws: SettingError.self) { try WeatherSettings.provider(choice: nil, environment: ["DIARY_WEATHER": "sunny"]) }
        #expect(error.source == .environment("DIARY_WEATHER") && error.description.contains("no weather provider called sunny"))
    }
}
