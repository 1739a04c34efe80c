import ArgumentParser
import Foundation
import DiaryServer
import DiaryWeather
import Hummingbird
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the web app and its JSON API. Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.")

    @OptionGroup var options: StoreOptions

    @Option(help: "The address to listen on. 127.0.0.1 keeps the diary to this computer.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "Where new entries' weather comes from: open-meteo (no key needed), openweather (needs DIARY_OPENWEATHER_KEY or DIARY_OPENWEATHER_KEY_FILE), or off. Default: $DIARY_WEATHER, else open-meteo.")
    var weather: String?

    func run() async throws {
        let provider = try WeatherSettings.provider(choice: weather, environment: ProcessInfo.processInfo.environment)
        let store = try options.openStore()
        var logger = Logger(label: "diary")
        logger.logLevel = .info
        let host = self.host
        let app = buildApplication(store: store, settings: ServerSettings(host: host, port: port, weather: provider), logger: logger) { port in
            // Written straight to the file descriptor: a pipe would otherwise hold it in a buffer.
            FileHandle.standardOutput.write(Data("Diary is at http://\(host):\(port)/ (database: \(store.path)). Press Ctrl-C to stop.\n".utf8))
        }
        try await app.runService()
    }
}
