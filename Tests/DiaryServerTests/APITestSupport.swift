import DiaryCore
import DiaryPasswords
import DiaryServer
import DiaryStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// A real application on a fresh SQLite diary with one account, driven in memory. Requests
/// carry that account's personal access token unless told otherwise.
func withDiaryAPI(webFiles: URL? = nil, _ test: @Sendable (APIClient) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diary-api-\(UUID().diaryString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let database = try SQLiteDatabase(path: folder.appendingPathComponent("diary.sqlite").path)
    let accounts = SQLiteStorage(database: database).accounts(passwords: BcryptPasswords(cost: 4))
    let writer = try await accounts.addUser(name: "writer", password: "correct horse")
    let token = try await accounts.createToken(named: "tests", for: writer)
    var settings = ServerSettings(port: 0, bcryptCost: 4)
    settings.webFiles = webFiles
    let app = buildApplication(storage: SQLiteStorage(database: database), settings: settings, logger: Logger(label: "test"))
    try await app.test(.router) { client in
        try await test(APIClient(client: client, token: token, accounts: accounts, database: database))
    }
}

/// The test client, signed in with a bearer token.
struct APIClient: Sendable {
    let client: any TestClientProtocol
    var token: String?
    let accounts: Accounts
    /// The diary file the application serves.
    let database: SQLiteDatabase

    @discardableResult
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> TestResponse {
        var fields = headers
        if let token, fields[.authorization] == nil { fields[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: uri, method: method, headers: fields, body: body)
    }

    /// Sends JSON and returns the answer's status, headers and decoded object.
    @discardableResult
    func send(_ method: HTTPRequest.Method, _ uri: String, json: String? = nil, headers: HTTPFields = [:]) async throws -> (TestResponse, [String: Any]) {
        var fields = headers
        if json != nil, fields[.contentType] == nil { fields[.contentType] = "application/json" }
        let response = try await execute(uri: uri, method: method, headers: fields, body: json.map { ByteBuffer(string: $0) })
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any] ?? [:]
        return (response, object)
    }

    /// Creates an entry and returns its id.
    func create(title: String, body: String = "") async throws -> String {
        let payload = try JSONSerialization.data(withJSONObject: ["title": title, "body": body])
        let (response, object) = try await send(.post, "/api/v1/entries", json: String(decoding: payload, as: UTF8.self))
        #expect(response.status == .created)
        return try #require(object["id"] as? String)
    }

    /// The same client with no credentials, or another's.
    func signed(with token: String?) -> APIClient {
        APIClient(client: client, token: token, accounts: accounts, database: database)
    }
}
