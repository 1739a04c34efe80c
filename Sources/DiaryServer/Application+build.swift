import DiaryCore
import Foundation
import Hummingbird
import Logging

/// Where and how the server listens.
public struct ServerSettings: Sendable {
    public var host: String
    public var port: Int
    /// Where new entries' weather comes from; `nil` when weather is off.
    public var weather: (any WeatherProvider)?

    public init(host: String = "127.0.0.1", port: Int = 8080, weather: (any WeatherProvider)? = nil) {
        self.host = host
        self.port = port
        self.weather = weather
    }
}

/// The files shipped inside the binary's resource bundle.
enum BundledFiles {
    static var webApp: URL { Bundle.module.resourceURL!.appendingPathComponent("Public") }
    static var openAPI: Data { (try? Data(contentsOf: Bundle.module.url(forResource: "openapi", withExtension: "yaml")!)) ?? Data() }
    static var sample: Data { (try? Data(contentsOf: Bundle.module.url(forResource: "sample", withExtension: "json")!)) ?? Data() }
}

/// The router: the web app's files, and the JSON API under `/api/v1`.
public func buildRouter(store: some EntryStore, weather: (any WeatherProvider)? = nil, logger: Logger = Logger(label: "diary")) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: APIErrorMiddleware())
    router.add(middleware: WebAppFiles(folder: BundledFiles.webApp))
    let api = router.group("api/v1")
    let recorder = weather.map { WeatherRecorder(provider: $0, store: store, logger: logger) }
    EntriesController(store: store, weather: recorder).addRoutes(to: api)
    TrashController(store: store).addRoutes(to: api)
    SearchController(store: store).addRoutes(to: api)
    SampleController(store: store, sample: BundledFiles.sample).addRoutes(to: api)
    let openAPI = ByteBuffer(bytes: BundledFiles.openAPI)
    api.get("openapi.yaml") { _, _ in
        Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"], body: .init(byteBuffer: openAPI))
    }
    return router
}

/// The whole application; `diary serve` runs it, and tests drive it in memory.
public func buildApplication(
    store: some EntryStore, settings: ServerSettings, logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        router: buildRouter(store: store, weather: settings.weather, logger: logger),
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "Diary"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? settings.port) },
        logger: logger)
}
