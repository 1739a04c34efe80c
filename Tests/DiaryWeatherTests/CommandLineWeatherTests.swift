import Foundation
import Testing

@Suite("Weather on the command line")
struct CommandLineWeatherTests {
    static let binary = ProcessInfo.processInfo.environment["DIARY_BIN"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/diary").path

    /// Waits for the process on a thread of its own: the fake provider it calls runs on Swift's
    /// cooperative threads (two on a 2-core machine), and a test blocking one of them while it
    /// waits starved the other tests' servers (a save once took 3 s on CI).
    static func diary(_ arguments: [String], environment: [String: String]) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try runDiary(arguments, environment: environment) }) }.start()
        }
    }

    private static func runDiary(_ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = environment.merging(["LANG": "en_US.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("new --location records the weather, and list shows it as an emoji")
    func newWithLocation() async throws {
        try await FakeWeatherServer.withServer { base in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diary-cli-weather-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let environment = ["DIARY_DATABASE": folder.appendingPathComponent("d.sqlite").path, "DIARY_OPEN_METEO_URL": base + "/ok"]
            let saved = try await Self.diary(["new", "Walk", "--location", "37.5665,126.978"], environment: environment)
            #expect(saved.contains("Slight rain"))
            #expect(try await Self.diary(["list"], environment: environment).contains("🌧️ Walk"))

            let failing = environment.merging(["DIARY_OPEN_METEO_URL": base + "/error500"]) { $1 }
            let unlucky = try await Self.diary(["new", "Indoors", "--location", "37.5665,126.978"], environment: failing)
            #expect(unlucky.hasPrefix("Saved "))
            #expect(unlucky.contains("No weather: the provider answered HTTP 500."))
            #expect(try await Self.diary(["list"], environment: environment).contains("Indoors"))
        }
    }

    @Test("show gives the entry's weather: its emoji, the provider's words and the temperature")
    func showWeather() async throws {
        try await FakeWeatherServer.withServer { base in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diary-cli-weather-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let environment = ["DIARY_DATABASE": folder.appendingPathComponent("d.sqlite").path, "DIARY_OPEN_METEO_URL": base + "/ok"]
            _ = try await Self.diary(["new", "Walk", "--location", "37.5665,126.978"], environment: environment)
            // The fixture's weather code 61 at 3.4 °C.
            let shown = try await Self.diary(["show", "last"], environment: environment)
            #expect(shown.contains(" · 🌧️ Slight rain 3°C"), "\(shown)")
            #expect(shown.hasPrefix("Walk\n"), "\(shown)")
            // An entry the provider gave nothing for shows no weather.
            let failing = environment.merging(["DIARY_OPEN_METEO_URL": base + "/error500"]) { $1 }
            _ = try await Self.diary(["new", "Indoors", "--location", "37.5665,126.978"], environment: failing)
            let indoors = try await Self.diary(["show", "last"], environment: environment)
            #expect(indoors.hasPrefix("Indoors\n") && !indoors.contains("°C") && !indoors.contains("rain"), "\(indoors)")
        }
    }

    @Test("new --location keeps the writer waiting at most a moment when the provider hangs")
    func hangingProvider() async throws {
        try await FakeWeatherServer.withServer { base in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diary-cli-weather-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let environment = ["DIARY_DATABASE": folder.appendingPathComponent("d.sqlite").path, "DIARY_OPEN_METEO_URL": base + "/hang"]
            let started = ContinuousClock.now
            let saved = try await Self.diary(["new", "Train", "--location", "37.5665,126.978"], environment: environment)
            // The provider's own timeout is 4 s; the command gives up on it well before.
            #expect(ContinuousClock.now - started < .seconds(3.5))
            #expect(saved.hasPrefix("Saved "))
            #expect(saved.contains("No weather: the provider did not answer within 1.5 seconds."))
            #expect(try await Self.diary(["list"], environment: environment).contains("Train"))
        }
    }
}
