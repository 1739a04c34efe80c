@testable import DiaryServer
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
            let packed = try await client.execute(uri: "/app.css", method: .get, headers: [.acceptEncoding: "gzip, deflate"])
            #expect(packed.headers[.contentEncoding] == "gzip")
            #expect(packed.body.readableBytes < plain.body.readableBytes / 2)
            var compressed = packed.body
            let unpacked = try compressed.decompress(with: .gzip)
            #expect(unpacked == plain.body)
        }
    }

    @Test("A browser that accepts br gets Brotli, smaller still; one that refuses it (q=0) gets gzip")
    func brotli() async throws {
        try await withDiaryAPI { client in
            let gzipped = try await client.execute(uri: "/js/list.js", method: .get, headers: [.acceptEncoding: "gzip, deflate"])
            let brotli = try await client.execute(uri: "/js/list.js", method: .get, headers: [.acceptEncoding: "gzip, deflate, br, zstd"])
            #expect(brotli.headers[.contentEncoding] == "br")
            #expect(brotli.headers[.vary] == "Accept-Encoding")
            #expect(brotli.body.readableBytes < gzipped.body.readableBytes * 95 / 100)
            let refused = try await client.execute(uri: "/js/list.js", method: .get, headers: [.acceptEncoding: "gzip, br;q=0"])
            #expect(refused.headers[.contentEncoding] == "gzip")
            let plain = try await client.execute(uri: "/js/list.js", method: .get)
            #expect(plain.headers[.contentEncoding] == nil)
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

    @Test("Scripts and styles are served without their comment lines, blank lines and indentation, the other lines as written")
    func withoutComments() async throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/DiaryServer/Resources/Public").standardized
        let scripts = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("js").path)
            .filter { $0.hasSuffix(".js") }.map { "js/" + $0 }
        #expect(scripts.count > 3)
        try await withDiaryAPI { client in
            for file in scripts + ["app.css"] {
                let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let served = String(buffer: try await client.execute(uri: "/" + file, method: .get).body)
                let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false)
                let servedLines = served.split(separator: "\n", omittingEmptySubsequences: false).dropLast() // after the last "\n"
                #expect(served.hasSuffix("\n"), "\(file)")
                // Which lines of the file are comments: a `//` line, or a line of a `/* … */`.
                var inBlock = false
                let commentLines = sourceLines.map { line -> Bool in
                    let text = line.trimmingCharacters(in: .whitespaces)
                    if inBlock {
                        inBlock = !text.contains("*/")
                        return true
                    }
                    if text.hasPrefix("/*") {
                        inBlock = !text.contains("*/")
                        return true
                    }
                    return text.hasPrefix("//")
                }
                // The lines of code, in their order, each on a line of its own as in the file.
                let code = zip(sourceLines, commentLines).filter { !$1 && !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map(\.0)
                #expect(servedLines.count == code.count, "\(file)")
                for (written, sent) in zip(code, servedLines) where written != sent {
                    let unindented = written.drop(while: { $0 == " " || $0 == "\t" })
                    // A script's line of code may lose the `// …` comment at its end, and only that.
                    let cutComment = file.hasSuffix(".js") && !sent.isEmpty && unindented.hasPrefix(sent)
                        && unindented.dropFirst(sent.count).drop(while: { $0 == " " }).hasPrefix("//")
                    #expect(sent == unindented || cutComment, "\(file): a line changed beyond its indentation and comment: \(written)")
                }
                // A stray backtick in a comment would quietly serve a file whole: none is.
                if file.hasSuffix(".js") {
                    #expect(!servedLines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }, "\(file)")
                }
            }
        }
    }

    @Test("A comment at the end of a line of script goes, and nothing that only looks like one", arguments: [
        ("let a = 1; // one", "let a = 1;"),
        ("go('#/'); // the list", "go('#/');"),
        ("fetch('https://example.com/x'); // a URL in a string stays", "fetch('https://example.com/x');"),
        ("const u = \"a // b\"; // c", "const u = \"a // b\";"),
        ("const s = 'it\\'s // here'; // c", "const s = 'it\\'s // here';"),
        ("const t = `a // b`; // c", "const t = `a // b`;"),
        // Left whole: what follows a `/` might be a regular expression.
        ("const r = /'/g; // a quote", "const r = /'/g; // a quote"),
        ("const half = a / 2; // c", "const half = a / 2; // c"),
        ("const r = /https?:\\/\\//; // c", "const r = /https?:\\/\\//; // c"),
        ("const t = `${a ? `x` : 'y'} // b`; // c", "const t = `${a ? `x` : 'y'} // b`;"),
        ("el.style.width = `${w}px`; // c", "el.style.width = `${w}px`;"),
        ("const o = { a: `${{ b: '}' }.b} //` }; // c", "const o = { a: `${{ b: '}' }.b} //` };"),
        ("const t = `${a / 2} px`; // c", "const t = `${a / 2} px`; // c"),
        ("x;// no space before", "x;// no space before"),
        ("const url = 'http://x'", "const url = 'http://x'"),
    ])
    func trailingComments(line: String, served: String) {
        #expect(WebFile.withoutTrailingComment(line) == served)
    }

    @Test("The service worker carries the release: each shell file's ETag, and a version that changes with any file")
    func workerRelease() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diary-web-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = [
            "index.html": "<!doctype html><title>Diary</title>",
            "app.css": "body { margin: 0; }",
            "js/main.js": "export const release = 1;",
            "icons/weather/rain-day.svg": "<svg/>",
            "sw.js": "// The worker\nconst RELEASE = { version: 'unreleased', files: {} };\nself.kept = RELEASE;\n",
        ]
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        struct Release: Decodable { var version: String; var files: [String: String] }
        @Sendable func release(_ client: APIClient) async throws -> (Release, String) {
            let worker = try await client.execute(uri: "/sw.js", method: .get)
            #expect(worker.headers[.contentType] == "text/javascript")
            #expect(worker.headers[.cacheControl] == "no-cache")
            let text = String(buffer: worker.body)
            let line = text.split(separator: "\n").first { $0.hasPrefix("const RELEASE = ") } ?? ""
            let json = line.dropFirst("const RELEASE = ".count).dropLast()
            #expect(text.hasSuffix("self.kept = RELEASE;\n"))
            return (try JSONDecoder().decode(Release.self, from: Data(json.utf8)), worker.headers[.eTag] ?? "")
        }

        let (first, firstTag) = try await withRelease(folder, release)
        #expect(Set(first.files.keys) == ["/", "/app.css", "/js/main.js"])
        try await withDiaryAPI(webFiles: folder) { client in
            for (path, tag) in first.files {
                let served = try await client.execute(uri: path, method: .get)
                #expect(served.headers[.eTag] == tag, "\(path)")
            }
        }
        // The same files: the same worker, byte for byte. One changed: another version.
        let again = try await withRelease(folder, release)
        #expect(again.1 == firstTag)
        try Data("export const release = 2;".utf8).write(to: folder.appendingPathComponent("js/main.js"))
        let (second, secondTag) = try await withRelease(folder, release)
        #expect(second.version != first.version && secondTag != firstTag)
        #expect(second.files["/js/main.js"] != first.files["/js/main.js"] && second.files["/app.css"] == first.files["/app.css"])
    }

    private func withRelease<T: Sendable>(_ folder: URL, _ read: @escaping @Sendable (APIClient) async throws -> T) async throws -> T {
        let box = ResultBox<T>()
        try await withDiaryAPI(webFiles: folder) { client in box.value = try await read(client) }
        return try #require(box.value)
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

/// Carries a value out of a `withDiaryAPI` closure.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    var value: T?
}
