import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A local stand-in for the weather providers, on 127.0.0.1 over real HTTP. It answers each
/// provider's documented JSON, or misbehaves, chosen by the first path segment of the base URL:
/// `/ok`, `/error500`, `/unauthorized`, `/malformed`, `/huge`, `/hang`, `/slow`.
enum FakeWeatherServer {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func router() throws -> Router<BasicRequestContext> {
        let openMeteo = try Data(contentsOf: fixtures.appendingPathComponent("open-meteo-current.json"))
        let openWeather = try Data(contentsOf: fixtures.appendingPathComponent("openweather-current.json"))
        let router = Router()
        router.get(":scenario/v1/forecast") { request, context in
            try await answer(context.parameters.get("scenario") ?? "", good: openMeteo, request: request)
        }
        router.get(":scenario/data/2.5/weather") { request, context in
            // OpenWeather's documented answer to a bad key.
            if request.uri.queryParameters.get("appid") != "test-key" {
                return json(#"{"cod":401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#, status: .unauthorized)
            }
            return try await answer(context.parameters.get("scenario") ?? "", good: openWeather, request: request)
        }
        return router
    }

    static func answer(_ scenario: String, good: Data, request: Request) async throws -> Response {
        switch scenario {
        case "ok": return json(String(decoding: good, as: UTF8.self))
        case "error500": return json(#"{"error": true, "reason": "Internal error"}"#, status: .internalServerError)
        case "unauthorized": return json(#"{"cod":401, "message": "Invalid API key."}"#, status: .unauthorized)
        case "malformed": return json(#"{"current": {"weather_code": "#)
        case "huge": return json("{\"padding\": \"" + String(repeating: "x", count: 5_000_000) + "\"}")
        case "hang":
            try await Task.sleep(for: .seconds(8))
            return json("{}")
        case "slow":
            try await Task.sleep(for: .seconds(5))
            return json(String(decoding: good, as: UTF8.self))
        default: return json("{}", status: .notFound)
        }
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Runs `test` with the base URL of a live fake server.
    static func withServer(_ test: @escaping @Sendable (_ base: String) async throws -> Void) async throws {
        let app = Application(router: try router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await test("http://127.0.0.1:\(try #require(client.port))")
        }
    }
}
