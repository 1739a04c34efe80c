import ArgumentParser
import Foundation
import DiaryServer
import DiaryStore
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

    @Flag(help: "Trust X-Forwarded-Proto, -Host and -For from a TLS proxy in front (also DIARY_TRUST_PROXY=1). Only behind such a proxy.")
    var trustProxy = false

    @Option(help: "Seconds a client may take to send a request's headers before it is answered 408 and disconnected.")
    var headerTimeout = 30

    @Option(help: "Where new entries' weather comes from: open-meteo (no key needed), openweather (needs DIARY_OPENWEATHER_KEY or DIARY_OPENWEATHER_KEY_FILE), or off. Default: $DIARY_WEATHER, else open-meteo.")
    var weather: String?

    func run() async throws {
        guard (1...3_600).contains(headerTimeout) else {
            throw ValidationError("--header-timeout must be from 1 to 3600 seconds, got \(headerTimeout).")
        }
        let provider = try WeatherSettings.provider(choice: weather, environment: ProcessInfo.processInfo.environment)
        let environment = ProcessInfo.processInfo.environment
        // The server checkpoints in the background, so no autosave waits for a checkpoint's sync.
        let database = try options.openDatabase(checkpoints: .background)
        // A diary with no account yet: whoever sets it up owns it. From another computer that
        // takes this code, which only the person who started the server sees.
        let setupCode = try await SQLiteAccountStore(database: database).userCount() == 0 ? SetupCode() : nil
        let settings = ServerSettings(
            host: host, port: port, weather: provider,
            trustProxy: trustProxy || environment["DIARY_TRUST_PROXY"] == "1",
            bcryptCost: try PasswordSettings.bcryptCost(environment: environment),
            headerTimeout: .seconds(headerTimeout),
            setupCode: setupCode)
        var logger = Logger(label: "diary")
        logger.logLevel = .info
        let host = self.host
        let path = database.path
        let app = buildApplication(database: database, settings: settings, logger: logger) { port in
            // Written straight to the file descriptor: a pipe would otherwise hold it in a buffer.
            FileHandle.standardOutput.write(Data("Diary is at http://\(host):\(port)/ (database: \(path)). Press Ctrl-C to stop.\n".utf8))
            if let setupCode {
                FileHandle.standardOutput.write(Data("""
                    This diary has no account yet: open the address above to make the first one.
                    From another computer, the setup page asks for this one-time code: \(setupCode.printed)

                    """.utf8))
            }
        }
        let checkpoints = Task { await database.backgroundCheckpoints().run() }
        defer { checkpoints.cancel() }
        try await app.runService()
    }
}
