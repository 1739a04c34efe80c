import DiaryCore
import DiaryServer
import DiaryStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// A real application on a fresh SQLite diary, driven in memory.
func withDiaryAPI(_ test: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diary-api-\(UUID().diaryString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let store = try SQLiteEntryStore(path: folder.appendingPathComponent("diary.sqlite").path)
    let app = buildApplication(store: store, settings: ServerSettings(host: "127.0.0.1", port: 0), logger: Logger(label: "test"))
    try await app.test(.router, test)
}

extension TestClientProtocol {
    /// Sends JSON and returns the answer's status, headers and decoded object.
    @discardableResult
    func send(_ method: HTTPRequest.Method, _ uri: String, json: String? = nil, headers: HTTPFields = [:]) async throws -> (TestResponse, [String: Any]) {
        var fields = headers
        if json != nil, fields[.contentType] == nil { fields[.contentType] = "application/json" }
        let response = try await execute(uri: uri, method: method, headers: fields, body: json.map { ByteBuffer(string: $0) })
        let object = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:]
        return (response, object)
    }

    /// Creates an entry and returns its id.
    func create(title: String, body: String = "") async throws -> String {
        let payload = try JSONSerialization.data(withJSONObject: ["title": title, "body": body])
        let (response, object) = try await send(.post, "/api/v1/entries", json: String(decoding: payload, as: UTF8.self))
        #expect(response.status == .created)
        return try #require(object["id"] as? String)
    }
}
