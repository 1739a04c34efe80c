import ArgumentParser
import Foundation
import DiaryServer
import DiaryWeather
import Hummingbird
import Logging
import NIOCore
import DiaryCore

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the web app and its JSON API. Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.")

    @OptionGroup var options: DatabaseOptions

    @Option(help: "The address to listen on. 127.0.0.1 keeps the diary to this computer; any other needs --host-name.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(name: .customLong("host-name"),
            help: "A name (or address) people reach the diary by, such as diary.example.com; repeatable (also DIARY_HOST_NAMES, comma-separated). Requests for any other host are refused. Loopback's names always work.")
    var hostNames: [String] = []

    @Option(name: .customLong("trusted-proxy"),
            help: "The address, or range such as 10.0.0.0/8, of a proxy in front whose X-Forwarded-For, -Proto and -Host to believe; repeatable (also DIARY_TRUSTED_PROXIES, comma-separated).")
    var trustedProxies: [String] = []

    @Flag(help: "Trust a proxy on this computer (127.0.0.1, ::1): the same as --trusted-proxy 127.0.0.0/8 --trusted-proxy ::1 (also DIARY_TRUST_PROXY=1).")
    var trustProxy = false

    @Option(help: "Seconds a client may take to send a request's headers before it is answered 408 and disconnected.")
    var headerTimeout = 30

    @Option(help: "Seconds a client may take to send a request's body, once its headers have come, before it is answered 408 and disconnected.")
    var bodyTimeout = 60

    @Option(help: "Connections open at once; when all are taken, the slowest to send its request (or the longest idle) is closed for a new one.")
    var maxConnections = 1_000

    @Option(help: "Connections one address may hold at once (a trusted proxy's are not counted); a new one past it closes that address's slowest. Default: a quarter of --max-connections, at least 16.")
    var maxConnectionsPerClient: Int?

    @Option(help: "Seconds a search may run before it is stopped and answered 503 (also DIARY_SEARCH_TIMEOUT; default 2).")
    var searchTimeout: Double?

    @Option(help: "Days an entry stays in the trash before it is deleted for good; 0 keeps it until the trash is emptied by hand.")
    var trashDays = Diary.trashDays

    @Option(help: "Megabytes each user's photos may take together; 0 (the default) sets no limit. Default: $DIARY_PHOTO_QUOTA, else 0.")
    var photoQuota: Int?

    @Option(help: "Where new entries' weather comes from: open-meteo (no key needed), openweather (needs DIARY_OPENWEATHER_KEY or DIARY_OPENWEATHER_KEY_FILE), or off. Default: $DIARY_WEATHER, else open-meteo.")
    var weather: String?

    /// Every number in its range, and every setting of the environment readable, before anything
    /// is opened: an error names the flag or variable to fix (`Setting`).
    func validate() throws {
        let environment = ProcessInfo.processInfo.environment
        do {
            try Self.check(port, "--port", within: 0...65_535, note: " (0 picks a free one)")
            try Self.check(headerTimeout, "--header-timeout", within: 1...3_600, note: " seconds")
            try Self.check(bodyTimeout, "--body-timeout", within: 1...3_600, note: " seconds")
            try Self.check(trashDays, "--trash-days", within: 0...36_500, note: " (0: never)")
            try Self.check(maxConnections, "--max-connections", within: 1...1_000_000)
            if let maxConnectionsPerClient {
                try Self.check(maxConnectionsPerClient, "--max-connections-per-client", within: 1...max(1, maxConnections),
                               note: " (--max-connections)")
            }
            _ = try SearchSettings.timeout(option: searchTimeout, environment: environment)
            _ = try PhotoQuotaSetting.bytes(option: photoQuota, environment: environment)
            _ = try PasswordSettings.bcryptCost(environment: environment)
            _ = try WebRootSetting.folder(environment: environment)
            _ = try WeatherSettings.choice(option: weather, environment: environment)
        } catch let error as SettingError {
            throw ValidationError(error.description)
        }
        _ = try NetworkSettings(host: host, hostNames: hostNames, trustedProxies: trustedProxies, trustProxy: trustProxy,
                                environment: environment)
    }

    /// A flag's number in its range.
    private static func check(_ value: Int, _ flag: String, within range: ClosedRange<Int>, note: String = "") throws(SettingError) {
        try Setting<Int>.check(Resolved(value: value, source: .flag(flag)), within: range, note: note)
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let network = try NetworkSettings(host: host, hostNames: hostNames, trustedProxies: trustedProxies,
                                          trustProxy: trustProxy, environment: environment)
        let provider = try WeatherSettings.provider(choice: weather, environment: environment)
        // The server runs the storage's upkeep in the background (a database file's checkpoints), so no
        // autosave waits for it.
        let storage = try await options.openStorage(for: .server)
        // A diary with no account yet: whoever sets it up owns it. From another computer that
        // takes this code, which only the person who started the server sees.
        let setupCode = try await options.accounts(of: storage).userCount() == 0 ? SetupCode() : nil
        var settings = ServerSettings(
            host: host, port: port, weather: provider,
            trustedProxies: network.trustedProxies, hostNames: network.hostNames,
            bcryptCost: try PasswordSettings.bcryptCost(environment: environment),
            headerTimeout: .seconds(headerTimeout), bodyTimeout: .seconds(bodyTimeout), maxConnections: maxConnections,
            setupCode: setupCode)
        settings.search = SearchLimits(timeout: try SearchSettings.timeout(option: searchTimeout, environment: environment))
        settings.webFiles = try WebRootSetting.folder(environment: environment)
        settings.trashDays = trashDays == 0 ? nil : trashDays
        settings.photoQuotaBytes = try PhotoQuotaSetting.bytes(option: photoQuota, environment: environment)
        settings.maxConnectionsPerClient = maxConnectionsPerClient
        var logger = Logger(label: "diary")
        logger.logLevel = .info
        // On a wildcard address (0.0.0.0, ::) the server answers only for the names given, so
        // the address shown is the first of them: http://0.0.0.0:8080/ would be refused (421).
        let names = network.hostNames.compactMap(ServedHosts.urlHost)
        let shown = ServedHosts.isWildcard(host) ? names.first ?? "127.0.0.1" : ServedHosts.urlHost(host) ?? host
        let others = ServedHosts.isWildcard(host) ? names.dropFirst().filter { $0 != shown } : []
        let location = storage.location
        do {
            try await serveDiary(storage: storage, settings: settings, logger: logger, shown: shown, others: Array(others),
                                 location: location, setupCode: setupCode)
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ServeError.portInUse(host: host, port: port)
        } catch let error as IOError where error.errnoCode == EACCES && port < 1_024 {
            throw ServeError.portNeedsPrivilege(port: port)
        }
    }

    private func serveDiary(storage: any Storage, settings: ServerSettings, logger: Logger, shown: String, others: [String],
                            location: String, setupCode: SetupCode?) async throws {
        try await serve(storage: storage, settings: settings, logger: logger) { port in
            // `Output` writes straight to the file descriptor: a pipe would otherwise hold it in a buffer.
            Output.print("Diary is at http://\(shown):\(port)/ (database: \(location)). Press Ctrl-C to stop.")
            if !others.isEmpty {
                let addresses = others.map { "http://\($0):\(port)/" }.joined(separator: ", ")
                Output.print("It is also at \(addresses).")
            }
            if let setupCode {
                Output.print("""
                    This diary has no account yet: open the address above to make the first one.
                    From another computer, the setup page asks for this one-time code: \(setupCode.printed)
                    """)
            }
        }
    }
}

enum ServeError: Error, CustomStringConvertible {
    case portInUse(host: String, port: Int)
    case portNeedsPrivilege(port: Int)

    var description: String {
        switch self {
        case .portInUse(let host, let port):
            "Port \(port) on \(host) is taken by another program (another diary serve?): choose another with --port, or --port 0 for any free one."
        case .portNeedsPrivilege(let port):
            "Port \(port) is below 1024, which only root may use here: choose --port 8080, or one above 1023."
        }
    }
}

/// `--search-timeout`, else `DIARY_SEARCH_TIMEOUT`, else 2 seconds.
enum SearchSettings {
    static let setting = Setting<Double>.number(flag: "--search-timeout", variable: "DIARY_SEARCH_TIMEOUT", expected: "a number of seconds")

    /// A number of seconds up to an hour: not so long that a stuck search holds a reader all
    /// day. A millisecond is allowed for tests that need a search to time out.
    static func timeout(option: Double?, environment: [String: String]) throws(SettingError) -> Duration {
        guard let resolved = try setting.resolve(flag: option, environment: environment) else {
            return SearchLimits().timeout
        }
        try Setting<Double>.check(resolved, within: 0.001...3_600, note: " seconds")
        return .milliseconds(Int64((resolved.value * 1_000).rounded()))
    }
}

/// `DIARY_WEB_ROOT`: a folder of web files served instead of those in the binary's bundle. For
/// tests that play a new release (they copy the files and change one); not a `serve` option, as
/// a diary in use has no reason to set it.
enum WebRootSetting {
    static let setting = Setting<String>(variable: "DIARY_WEB_ROOT")

    static func folder(environment: [String: String]) throws(SettingError) -> URL? {
        guard let path = try setting.resolve(flag: nil, environment: environment)?.value else { return nil }
        guard FileManager.default.fileExists(atPath: path + "/index.html") else {
            throw SettingError(source: .environment("DIARY_WEB_ROOT"),
                               "DIARY_WEB_ROOT must be a folder holding the web app's files (index.html and the rest), got \"\(path)\".")
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}

/// `--photo-quota`, else `DIARY_PHOTO_QUOTA`, else 0 (no limit), in megabytes.
enum PhotoQuotaSetting {
    static let setting = Setting<Int>.wholeNumber(flag: "--photo-quota", variable: "DIARY_PHOTO_QUOTA",
                                                  expected: "a whole number of megabytes (0: no limit)")

    /// The photo allowance in bytes; `nil`: none.
    static func bytes(option: Int?, environment: [String: String]) throws(SettingError) -> Int64? {
        let megabytes = try setting.resolve(flag: option, environment: environment, default: 0, within: 0...100_000_000,
                                            note: " megabytes (0: no limit)")
        return megabytes == 0 ? nil : Int64(megabytes) * 1_048_576
    }
}
