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

    func run() async throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be from 0 to 65535 (0 picks a free one), got \(port).")
        }
        guard (1...3_600).contains(headerTimeout) else {
            throw ValidationError("--header-timeout must be from 1 to 3600 seconds, got \(headerTimeout).")
        }
        guard (1...3_600).contains(bodyTimeout) else {
            throw ValidationError("--body-timeout must be from 1 to 3600 seconds, got \(bodyTimeout).")
        }
        guard (0...36_500).contains(trashDays) else {
            throw ValidationError("--trash-days must be from 0 (never) to 36500, got \(trashDays).")
        }
        guard (1...1_000_000).contains(maxConnections) else {
            throw ValidationError("--max-connections must be from 1 to 1000000, got \(maxConnections).")
        }
        if let maxConnectionsPerClient, !(1...maxConnections).contains(maxConnectionsPerClient) {
            throw ValidationError("--max-connections-per-client must be from 1 to --max-connections (\(maxConnections)), got \(maxConnectionsPerClient).")
        }
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
    static func timeout(option: Double?, environment: [String: String]) throws -> Duration {
        let seconds: Double
        if let option {
            seconds = option
        } else if let text = environment["DIARY_SEARCH_TIMEOUT"] {
            guard let value = Double(text) else {
                throw ValidationError("DIARY_SEARCH_TIMEOUT must be a number of seconds, got \"\(text)\".")
            }
            seconds = value
        } else {
            return SearchLimits().timeout
        }
        // A number of seconds up to an hour: not NaN, and not so long that a stuck search
        // holds a reader all day. A millisecond is allowed for tests that need a search to time out.
        guard seconds.isFinite, (0.001...3_600).contains(seconds) else {
            throw ValidationError("The search timeout must be from 0.001 to 3600 seconds, got \(seconds).")
        }
        return .milliseconds(Int64((seconds * 1_000).rounded()))
    }
}

/// `DIARY_WEB_ROOT`: a folder of web files served instead of those in the binary's bundle. For
/// tests that play a new release (they copy the files and change one); not a `serve` option, as
/// a diary in use has no reason to set it.
enum WebRootSetting {
    static func folder(environment: [String: String]) throws -> URL? {
        guard let path = environment["DIARY_WEB_ROOT"], !path.isEmpty else { return nil }
        guard FileManager.default.fileExists(atPath: path + "/index.html") else {
            throw ValidationError("DIARY_WEB_ROOT must be a folder holding the web app's files (index.html and the rest), got \"\(path)\".")
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}

/// `--photo-quota`, else `DIARY_PHOTO_QUOTA`, in bytes.
enum PhotoQuotaSetting {
    /// The photo allowance in bytes, from the option, else `DIARY_PHOTO_QUOTA`; `nil`: none.
    static func bytes(option: Int?, environment: [String: String]) throws -> Int64? {
        var megabytes = option
        if megabytes == nil, let text = environment["DIARY_PHOTO_QUOTA"] {
            guard let value = Int(text) else {
                throw ValidationError("DIARY_PHOTO_QUOTA must be a whole number of megabytes (0: no limit), got \"\(text)\".")
            }
            megabytes = value
        }
        guard let megabytes, megabytes != 0 else { return nil }
        guard (1...100_000_000).contains(megabytes) else {
            throw ValidationError("--photo-quota must be from 0 (no limit) to 100000000 megabytes, got \(megabytes).")
        }
        return Int64(megabytes) * 1_048_576
    }
}
