import DiaryCore
import DiaryPasswords
import Foundation
import Hummingbird
import Logging
import NIOCore

/// Where and how the server listens.
public struct ServerSettings: Sendable {
    public var host: String
    public var port: Int
    /// Where new entries' weather comes from; `nil` when weather is off.
    public var weather: (any WeatherProvider)?
    /// Whose `X-Forwarded-Proto`/`-Host`/`-For` to believe: only proxies in front that set them.
    public var trustedProxies: TrustedProxies
    /// Names the server answers to besides loopback's (`--host-name`); see `ServedHosts`.
    public var hostNames: [String]
    /// bcrypt's work factor for new passwords.
    public var bcryptCost: UInt8
    /// How long a client may take to send a request's headers (see `RequestDeadlines`).
    public var headerTimeout: Duration
    /// How long a client may take to send a request's body, once its headers have come.
    public var bodyTimeout: Duration
    /// Connections open at once; a new one past it closes the slowest (see `OpenConnections`).
    public var maxConnections: Int
    /// Connections one address may hold (`OpenConnections`); `nil`: a quarter of
    /// `maxConnections`, at least 16.
    public var maxConnectionsPerClient: Int?
    /// The code a first account's setup from another computer must carry (see `SetupCode`).
    public var setupCode: SetupCode?
    /// Searches at once and their deadline (`SearchGate`); set after `init`.
    public var search = SearchLimits()
    /// The folder of web files to serve instead of the bundled ones (`DIARY_WEB_ROOT`; the tests
    /// copy and change them to play a new release); `nil`: the files shipped in the binary's bundle.
    public var webFiles: URL?
    /// Days an entry stays in the trash before the server deletes it for good (`--trash-days`);
    /// `nil`: kept until the writer empties it.
    public var trashDays: Int? = Diary.trashDays
    /// The most bytes each user's photos may take together; `nil`: no limit.
    public var photoQuotaBytes: Int64?

    public init(host: String = "127.0.0.1", port: Int = 8080, weather: (any WeatherProvider)? = nil,
                trustedProxies: TrustedProxies = .none, hostNames: [String] = [],
                bcryptCost: UInt8 = 12, headerTimeout: Duration = .seconds(30),
                bodyTimeout: Duration = .seconds(60), maxConnections: Int = 1_000, setupCode: SetupCode? = nil) {
        self.host = host
        self.port = port
        self.weather = weather
        self.trustedProxies = trustedProxies
        self.hostNames = hostNames
        self.bcryptCost = bcryptCost
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.maxConnections = maxConnections
        self.setupCode = setupCode
    }
}

/// The files shipped inside the binary's resource bundle.
enum BundledFiles {
    static var webApp: URL { Bundle.module.resourceURL!.appendingPathComponent("Public") }
    static var openAPI: Data { (try? Data(contentsOf: Bundle.module.url(forResource: "openapi", withExtension: "yaml")!)) ?? Data() }
    static var sample: Data { (try? Data(contentsOf: Bundle.module.url(forResource: "sample", withExtension: "json")!)) ?? Data() }
}

/// The router: the web app's files, and the JSON API under `/api/v1`, where everything but
/// logging in and the first account's setup needs a user.
func buildRouter(storage: any Storage, settings: ServerSettings, logger: Logger) -> Router<DiaryRequestContext> {
    // HEAD wherever GET: the same status and headers, no body.
    let router = Router(context: DiaryRequestContext.self, options: .autoGenerateHeadEndpoints)
    let accounts = storage.accounts(passwords: BcryptPasswords(cost: settings.bcryptCost))
    let origins = OriginCheck()
    router.add(middleware: HeadResponses())
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: HostCheckMiddleware(hosts: ServedHosts(listeningOn: settings.host, hostNames: settings.hostNames),
                                               proxies: settings.trustedProxies))
    let methods = RouteMethods()
    router.add(middleware: APIErrorMiddleware(methods: methods))
    router.add(middleware: WebAppFiles(folder: settings.webFiles ?? BundledFiles.webApp))

    let api = router.group("api/v1").add(middleware: IdentifyMiddleware(accounts: accounts))
    let openAPI = ByteBuffer(bytes: BundledFiles.openAPI)
    api.get("openapi.yaml") { _, _ in
        Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"], body: .init(byteBuffer: openAPI))
    }
    SessionController(accounts: accounts, origins: origins, setupCode: settings.setupCode, weather: settings.weather != nil,
                      trashDays: settings.trashDays)
        .addRoutes(to: api)

    let diary = api.group().add(middleware: RequireUserMiddleware(origins: origins))
    let diaries: @Sendable (UserID) -> Diary = { storage.diary(of: $0) }
    let recorder = settings.weather.map { WeatherRecorder(provider: $0, logger: logger) }
    EntriesController(diaries: diaries, weather: recorder).addRoutes(to: diary)
    TrashController(diaries: diaries).addRoutes(to: diary)
    SearchController(diaries: diaries, gate: SearchGate(limits: settings.search)).addRoutes(to: diary)
    OrganizeController(diaries: diaries).addRoutes(to: diary)
    PhotosController(photos: { [quota = settings.photoQuotaBytes] in storage.photos(of: $0, quotaBytes: quota) }).addRoutes(to: diary)
    SampleController(diaries: diaries, sample: BundledFiles.sample).addRoutes(to: diary)
    AccountController(accounts: accounts).addRoutes(to: diary)
    ExportController(diaries: diaries).addRoutes(to: diary)
    ImportController(diaries: diaries, photos: { [quota = settings.photoQuotaBytes] in storage.photos(of: $0, quotaBytes: quota) }).addRoutes(to: diary)
    methods.learn(router.routes)
    return router
}

/// The whole application; `diary serve` runs it, and tests drive it in memory.
public func buildApplication(
    storage: any Storage, settings: ServerSettings, logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let connections = OpenConnections(capacity: settings.maxConnections,
                                      perClient: min(settings.maxConnections, settings.maxConnectionsPerClient ?? max(16, settings.maxConnections / 4)),
                                      trusted: settings.trustedProxies)
    return Application(
        router: buildRouter(storage: storage, settings: settings, logger: logger),
        // Fresh deadlines and a fresh share for each connection (the closure runs per connection).
        server: .http1(configuration: .init(additionalChannelHandlers: [
            ConnectionShare(connections),
            RequestDeadlines(headLimit: TimeAmount(settings.headerTimeout), bodyLimit: TimeAmount(settings.bodyTimeout)),
        ])),
        // Beyond the limit, connections wait in the kernel's queue until one closes; the last
        // place taken closes the slowest connection (`OpenConnections`), so that one is free.
        configuration: .init(address: .hostname(settings.host, port: settings.port),
                             availableConnectionsDelegate: .maximum(settings.maxConnections, logger: logger)),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? settings.port) },
        logger: logger)
}

extension TimeAmount {
    init(_ duration: Duration) {
        self = .nanoseconds(Int64(duration / .nanoseconds(1)))
    }
}
