import CompressNIO
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("The web app's files")
struct WebAppFilesTests {
    @Test("/ serves the app's page, and a repeat visit with its ETag is a 304 with no body")
    func indexWithETag() async throws {
        try await withDiaryAPI { client in
            let first = try await client.execute(uri: "/", method: .get)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "text/html; charset=utf-8")
            #expect(String(buffer: first.body).contains("<html"))
            let tag = try #require(first.headers[.eTag])
            let second = try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: tag])
            #expect(second.status == .notModified)
            #expect(second.body.readableBytes == 0)
        }
    }

    @Test("A browser that accepts gzip gets the app's files compressed, and they unpack to the same bytes")
    func gzip() async throws {
        try await withDiaryAPI { client in
            let plain = try await client.execute(uri: "/app.css", method: .get)
            let packed = try await client.execute(uri: "/app.css", method: .get, headers: [.acceptEncoding: "gzip, deflate, br"])
            #expect(packed.headers[.contentEncoding] == "gzip")
            #expect(packed.body.readableBytes < plain.body.readableBytes / 2)
            var compressed = packed.body
            let unpacked = try compressed.decompress(with: .gzip)
            #expect(unpacked == plain.body)
        }
    }

    @Test("Weather icons are SVG, kept by browsers for a year; the app's own files are revalidated")
    func weatherIcons() async throws {
        try await withDiaryAPI { client in
            let icon = try await client.execute(uri: "/icons/weather/rain-night.svg", method: .get)
            #expect(icon.status == .ok)
            #expect(icon.headers[.contentType] == "image/svg+xml")
            #expect(icon.headers[.cacheControl]?.contains("max-age=31536000") == true)
            let script = try await client.execute(uri: "/js/main.js", method: .get)
            #expect(script.headers[.cacheControl] == "no-cache")
        }
    }

    @Test("The OpenAPI document is served")
    func openAPI() async throws {
        try await withDiaryAPI { client in
            let response = try await client.execute(uri: "/api/v1/openapi.yaml", method: .get)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body).hasPrefix("openapi: 3.1"))
        }
    }
}
