import CompressNIO
import Foundation
import Hummingbird
import Synchronization

/// Serves the web app (HTML, CSS, JavaScript modules, icons) from memory.
///
/// The files are a few dozen kilobytes, read once at start from the binary's resource bundle,
/// so a request never touches the disk and the command works from any directory.
struct WebAppFiles<Context: RequestContext>: RouterMiddleware {
    let files: [String: WebFile]

    /// The files under `folder`: the bundled web app, or `DIARY_WEB_ROOT`'s copy of it.
    init(folder: URL) { files = WebFile.all(in: folder) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, let file = files[request.uri.path] else {
            return try await next(request, context)
        }
        var headers: HTTPFields = [.contentType: file.contentType, .eTag: file.eTag, .cacheControl: file.cacheControl]
        let (gzipped, brotli) = file.compressed.copies
        if gzipped != nil || brotli != nil { headers[.vary] = "Accept-Encoding" }
        if request.headers[.ifNoneMatch] == file.eTag {
            return Response(status: .notModified, headers: headers)
        }
        var body = file.body
        let accepted = Self.codings(request.headers[.acceptEncoding])
        if let brotli, accepted.contains("br") {
            body = brotli
            headers[.contentEncoding] = "br"
        } else if let gzipped, accepted.contains("gzip") {
            body = gzipped
            headers[.contentEncoding] = "gzip"
        }
        headers[.contentLength] = String(body.readableBytes)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: request.method == .head ? ByteBuffer() : body))
    }
}

extension WebAppFiles {
    /// The content codings an `Accept-Encoding` value accepts (`AcceptEncoding.codings`).
    static func codings(_ value: String?) -> Set<Substring> { AcceptEncoding.codings(value) }
}

/// What a client's `Accept-Encoding` accepts, for the web app's files and the API's JSON alike.
enum AcceptEncoding {
    /// The content codings an `Accept-Encoding` value accepts: "gzip, deflate, br;q=1" gives
    /// gzip, deflate and br; one given `q=0` is refused.
    static func codings(_ value: String?) -> Set<Substring> {
        var codings = Set<Substring>()
        for item in (value ?? "").split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = parts.first, !name.isEmpty else { continue }
            let refused = parts.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "").range(of: #"^q=0(\.0*)?$"#, options: .regularExpression) != nil }
            if !refused { codings.insert(Substring(name.lowercased())) }
        }
        return codings
    }
}

/// One file of the web app, in memory.
struct WebFile: Sendable {
    var contentType: String
    var body: ByteBuffer
    /// The body compressed for clients that accept gzip or Brotli, made at the file's first request.
    var compressed: CompressedCopies
    var eTag: String
    var cacheControl: String

    /// Every file under `folder` by its URL path; `/` serves `index.html`.
    static func all(in folder: URL) -> [String: WebFile] {
        var files: [String: WebFile] = [:]
        let root = folder.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            let path = root + "/" + relative
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                  var data = FileManager.default.contents(atPath: path)
            else { continue }
            let fileExtension = (relative as NSString).pathExtension.lowercased()
            if fileExtension == "js" || fileExtension == "css", let text = String(data: data, encoding: .utf8) {
                data = Data(Self.withoutCommentLines(text, script: fileExtension == "js").utf8)
            }
            files["/" + relative] = WebFile(data, path: relative)
        }
        WebAppLimits.stamp(&files)
        files["/"] = files["/index.html"]
        ShellRelease.stamp(&files)
        return files
    }

    /// No build step renames the app's files when they change, so browsers revalidate them each
    /// time (a 304 with no body, thanks to the ETag). Weather icons never change once shipped
    /// (a new drawing gets a new name), so they are kept for a year.
    static func cacheControl(for path: String) -> String {
        path.hasPrefix("icons/weather/") ? "public, max-age=31536000, immutable" : "no-cache"
    }

    static let contentTypes = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        // Scripts (modules and the worker) are always read as UTF-8: no charset needed.
        "js": "text/javascript",
        "json": "application/json",
        "svg": "image/svg+xml",
        "png": "image/png",
        "ico": "image/x-icon",
        "webmanifest": "application/manifest+json",
        "yaml": "application/yaml",
        "txt": "text/plain; charset=utf-8",
    ]

    /// A script or a stylesheet as the browser needs it: the comments that fill lines of their
    /// own are for people reading the files (they were a sixth of a first visit's bytes), so each
    /// such line goes, and so do blank lines (another 1 %; the console's line numbers are the
    /// served file's, not the source's). A comment line is one that starts with `//` (scripts),
    /// or a `/* … */` that starts a line and ends one. The indentation at the start of each line
    /// goes too (2 % of a first visit, even gzipped): outside strings, neither language reads it.
    /// Every line break between two lines of code stays, so no statement ends where it did not.
    /// A file with a line that could carry a string or a template literal on to the next (an odd
    /// number of backticks, or a backslash at its end) is served as written: there a line that
    /// starts with `//` or `/*`, or spaces, may be text.
    static func withoutCommentLines(_ text: String, script: Bool) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let trimmed = { (line: String) in line.trimmingCharacters(in: .whitespacesAndNewlines) }
        let mayContinue = { (line: String) in
            line.unicodeScalars.count(where: { $0 == "`" }) % 2 == 1 || line.trimmingCharacters(in: .newlines).hasSuffix("\\")
        }
        if lines.contains(where: mayContinue) { return text }

        // The line where the comment opened on line `start` closes, if nothing follows it there.
        func closingLine(_ start: Int) -> Int? {
            var rest = Substring(trimmed(lines[start]).dropFirst(2))
            var index = start
            while true {
                if let close = rest.range(of: "*/") {
                    return trimmed(String(rest[close.upperBound...])).isEmpty ? index : nil
                }
                index += 1
                guard index < lines.count else { return nil }
                rest = Substring(lines[index])
            }
        }

        var index = 0
        while index < lines.count {
            let line = trimmed(lines[index])
            if script, line.hasPrefix("//") {
                lines[index] = ""
            } else if line.hasPrefix("/*"), let end = closingLine(index) {
                for commentLine in index...end { lines[commentLine] = "" }
                index = end
            } else {
                let code = String(lines[index].drop(while: { $0 == " " || $0 == "\t" }))
                lines[index] = script ? Self.withoutTrailingComment(code) : code
            }
            index += 1
        }
        return lines.filter { !$0.isEmpty }.map { $0 + "\n" }.joined()
    }

    /// A line of script without the `// …` comment at its end (another 4 % of a first visit).
    /// The line is read from its start, minding strings and template literals (and the code in a
    /// template's `${…}`): the comment is the first `//` that follows a space outside them all. A
    /// line with any other `/` before that (a division, a regular expression, a `/* … */`, after
    /// which a quote may not open a string) is left as it is.
    static func withoutTrailingComment(_ line: String) -> String {
        let characters = Array(line.unicodeScalars)
        // Where the reading is: in a string or template (its quote), or in code inside a template
        // (`$`) or inside braces within that code (`{`); empty: the line's own code.
        var within: [Unicode.Scalar] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            switch within.last {
            case "'", "\"", "`":
                if character == "\\" { index += 1 }
                else if character == within.last { within.removeLast() }
                else if within.last == "`", character == "$", next == "{" { within.append("$"); index += 1 }
            default:
                if character == "'" || character == "\"" || character == "`" || character == "{" {
                    within.append(character)
                } else if character == "}" {
                    if !within.isEmpty { within.removeLast() }
                } else if character == "/" {
                    guard within.isEmpty, next == "/", index > 0, characters[index - 1] == " " else { return line }
                    var code = String(String.UnicodeScalarView(characters[..<index]))
                    while code.last == " " { code.removeLast() }
                    return code
                }
            }
            index += 1
        }
        return line
    }

    /// FNV-1a: a cheap, stable fingerprint of the content; not for security. Ten hex digits (40
    /// bits): it is in the head of every file a first visit fetches and in the worker, once for
    /// each file of the shell, where hex does not compress (six digits fewer took a third of a
    /// kilobyte off a first visit); two versions of one file share it once in a trillion changes.
    static func digest(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash >> 24, radix: 16)
        return String(repeating: "0", count: 10 - hex.count) + hex
    }
}

extension WebFile {
    /// The file `path` (relative to the web app's folder) holding `data`, as served.
    init(_ data: Data, path: String) {
        let type = Self.contentTypes[(path as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
        let compressible = data.count > 512 && !type.hasPrefix("image/png")
        self.init(contentType: type, body: ByteBuffer(bytes: data), compressed: CompressedCopies(of: compressible ? data : nil),
                  eTag: "W/\"\(Self.digest(data))\"", cacheControl: Self.cacheControl(for: path))
    }
}

/// A web file's gzip and Brotli copies, made once, when the file is first asked for, and kept.
/// Made at start, they were most of what starting a server cost (Brotli at quality 11 of all
/// 300 KB, 0.4 s of CPU in a debug build), though most servers the tests start never serve a
/// web file; now the first visit after a start waits for the files it asks for, once (about
/// 175 ms together in a release build), and a server that only answers the API never pays.
final class CompressedCopies: Sendable {
    private let data: Data?
    private let made = Mutex<(gzipped: ByteBuffer?, brotli: ByteBuffer?)?>(nil)

    /// Copies of `data`; `nil`: a file not worth compressing (small, or a PNG).
    init(of data: Data?) { self.data = data }

    /// Each copy, or `nil` where it would not pay (no smaller than the file, or than the gzip copy).
    var copies: (gzipped: ByteBuffer?, brotli: ByteBuffer?) {
        guard let data else { return (nil, nil) }
        return made.withLock { made in
            if let made { return made }
            var body = ByteBuffer(bytes: data)
            var gzipped = try? body.compress(with: .gzip(configuration: .init(compressionLevel: 9)))
            if let compressed = gzipped, compressed.readableBytes >= data.count { gzipped = nil }
            var brotli = WebFile.brotli(data)
            if let compressed = brotli, compressed.readableBytes >= (gzipped?.readableBytes ?? data.count) { brotli = nil }
            made = (gzipped, brotli)
            return (gzipped, brotli)
        }
    }
}
