import DiaryCore
import DiaryPasswords
import DiaryServer
import DiaryStore
import DiaryWeather
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// The server with a weather provider pointed at the fake one: a new entry with a location is
/// saved at once, and its weather arrives after, or never, without the writer noticing.
@Suite("Weather on new entries")
struct EntryWeatherTests {
    /// The test client with a bearer token on every request.
    struct SignedClient: Sendable {
        let client: any TestClientProtocol
        let token: String

        func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> TestResponse {
            var fields = headers
            fields[.authorization] = "Bearer \(token)"
            return try await client.execute(uri: uri, method: method, headers: fields, body: body)
        }
    }

    static func withServer(scenario: String, timeout: Duration = .seconds(1), _ test: @escaping @Sendable (SignedClient, Diary) async throws -> Void) async throws {
        try await FakeWeatherServer.withServer { base in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diary-weather-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let database = try SQLiteDatabase(path: folder.appendingPathComponent("diary.sqlite").path)
            let accounts = SQLiteStorage(database: database).accounts(passwords: BcryptPasswords(cost: 4))
            let user = try await accounts.addUser(name: "walker", password: "long enough")
            let token = try await accounts.createToken(named: "tests", for: user)
            let provider = OpenMeteoProvider(baseURL: URL(string: base + "/" + scenario)!, timeout: timeout)
            let app = buildApplication(storage: SQLiteStorage(database: database), settings: ServerSettings(port: 0, weather: provider, bcryptCost: 4), logger: Logger(label: "test"))
            try await app.test(.router) { client in try await test(SignedClient(client: client, token: token), database.diary(of: user.id)) }
        }
    }

    static let newEntry = ByteBuffer(string: #"{"title": "Walk", "body": "", "location": {"latitude": 37.56654, "longitude": 126.97797}}"#)

    static func create(_ client: SignedClient) async throws -> UUID {
        let response = try await client.execute(uri: "/api/v1/entries", method: .post, headers: [.contentType: "application/json"], body: newEntry)
        #expect(response.status == .created)
        let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        #expect(object?["weather"] is NSNull)
        let id = (object?["id"] as? String).flatMap { UUID(uuidString: $0) }
        return try #require(id)
    }

    @Test("The save answers before a slow provider; the weather is attached when it arrives")
    func slowProviderDoesNotDelaySave() async throws {
        try await Self.withServer(scenario: "slow", timeout: .seconds(8)) { client, store in
            let started = ContinuousClock.now
            let id = try await Self.create(client)
            // The provider takes 5 s: a save that waited for it would take longer. (The margin is
            // wide because the whole suite shares two cooperative threads on a 2-core machine.)
            #expect(ContinuousClock.now - started < .seconds(4))
            var weather: Weather?
            for _ in 0..<150 where weather == nil {
                try await Task.sleep(for: .milliseconds(100))
                weather = try await store.entry(id: id)?.weather
            }
            #expect(weather?.condition == .rain)
            #expect(weather?.icon == "rain-night")
            let entry = try await store.entry(id: id)
            #expect(entry?.location == Coordinates(latitude: 37.57, longitude: 126.98))
            #expect(entry?.version == 1)
        }
    }

    @Test("A provider that errs, refuses, talks nonsense, floods or hangs leaves the entry saved without weather",
          arguments: ["error500", "unauthorized", "malformed", "huge", "hang"])
    func failingProvider(scenario: String) async throws {
        try await Self.withServer(scenario: scenario) { client, store in
            let id = try await Self.create(client)
            try await Task.sleep(for: .milliseconds(1_500))
            let entry = try await store.entry(id: id)
            #expect(entry?.title == "Walk")
            #expect(entry?.weather == nil)
        }
    }

    @Test("A location off the Earth is a 400 and stores nothing")
    func badLocation() async throws {
        try await Self.withServer(scenario: "ok") { client, store in
            let response = try await client.execute(
                uri: "/api/v1/entries", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"title": "x", "body": "", "location": {"latitude": 123, "longitude": 0}}"#))
            #expect(response.status == .badRequest)
            #expect(try await store.count() == 0)
        }
    }
}
