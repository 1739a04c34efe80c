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
            if fileExtension == "js" || fileExtension == "css", String(data: data, encoding: .utf8) != nil {
                data = Data(Self.withoutCommentLines(Array(data), script: fileExtension == "js"))
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
    ///
    /// The reading is of UTF-8 bytes through a pointer, not of Characters: every mark it looks
    /// for is ASCII, and a multi-byte character's bytes are never ASCII. (Read as Strings through
    /// Foundation, it was half the CPU of a debug server's start, which the tests make some 1,500
    /// times a run.) Whitespace here is ASCII's: a line that starts with another space, then `//`,
    /// stays.
    static func withoutCommentLines(_ text: [UInt8], script: Bool) -> [UInt8] {
        text.withUnsafeBufferPointer { bytes in
            let file = ScriptBytes(bytes: bytes)
            var lines = file.lines()
            if lines.contains(where: file.mayContinue) { return text }

            // The line where the comment opened on line `start` closes, if nothing follows it there.
            func closingLine(_ start: Int) -> Int? {
                var rest = file.trimmed(lines[start])
                rest = rest.lowerBound + 2..<rest.upperBound
                var index = start
                while true {
                    if let close = file.firstCommentEnd(in: rest) {
                        return file.trimmed(close + 2..<rest.upperBound).isEmpty ? index : nil
                    }
                    index += 1
                    guard index < lines.count else { return nil }
                    rest = lines[index]
                }
            }

            var index = 0
            while index < lines.count {
                let line = file.trimmed(lines[index])
                if script, file.starts(line, ASCII.slash, ASCII.slash) {
                    lines[index] = 0..<0
                } else if file.starts(line, ASCII.slash, ASCII.star), let end = closingLine(index) {
                    for commentLine in index...end { lines[commentLine] = 0..<0 }
                    index = end
                } else {
                    var code = lines[index]
                    while !code.isEmpty, bytes[code.lowerBound] == ASCII.space || bytes[code.lowerBound] == ASCII.tab {
                        code = code.lowerBound + 1..<code.upperBound
                    }
                    lines[index] = script ? file.withoutTrailingComment(code) : code
                }
                index += 1
            }
            var served: [UInt8] = []
            served.reserveCapacity(bytes.count)
            for line in lines where !line.isEmpty {
                served.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[line]))
                served.append(ASCII.newline)
            }
            return served
        }
    }

    /// A line of script without the `// …` comment at its end (another 4 % of a first visit).
    /// The line is read from its start, minding strings and template literals (and the code in a
    /// template's `${…}`): the comment is the first `//` that follows a space outside them all. A
    /// line with any other `/` before that (a division, a regular expression, a `/* … */`, after
    /// which a quote may not open a string) is left as it is.
    static func withoutTrailingComment(_ line: String) -> String {
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBufferPointer { bytes in
            let kept = ScriptBytes(bytes: bytes).withoutTrailingComment(0..<bytes.count)
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[kept]), as: UTF8.self)
        }
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

/// The ASCII marks the web files' trimming reads, as UTF-8 bytes.
private enum ASCII {
    static let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), `return` = UInt8(ascii: "\r")
    static let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), backslash = UInt8(ascii: "\\")
    static let quote = UInt8(ascii: "'"), doubleQuote = UInt8(ascii: "\""), backtick = UInt8(ascii: "`")
    static let dollar = UInt8(ascii: "$"), openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
}

/// A script's or a stylesheet's bytes, read by line (each line a range of them, without its `\n`).
private struct ScriptBytes {
    let bytes: UnsafeBufferPointer<UInt8>

    func lines() -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        for index in 0..<bytes.count where bytes[index] == ASCII.newline {
            lines.append(start..<index)
            start = index + 1
        }
        lines.append(start..<bytes.count)
        return lines
    }

    /// Space, tab, line feed, vertical tab, form feed, carriage return.
    func isWhitespace(_ byte: UInt8) -> Bool { byte == ASCII.space || (byte >= 9 && byte <= 13) }

    /// `line` without whitespace at either end.
    func trimmed(_ line: Range<Int>) -> Range<Int> {
        var start = line.lowerBound, end = line.upperBound
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    func starts(_ line: Range<Int>, _ first: UInt8, _ second: UInt8) -> Bool {
        line.count >= 2 && bytes[line.lowerBound] == first && bytes[line.lowerBound + 1] == second
    }

    /// Where the first `*/` in `range` starts.
    func firstCommentEnd(in range: Range<Int>) -> Int? {
        var index = range.lowerBound
        while index + 1 < range.upperBound {
            if bytes[index] == ASCII.star, bytes[index + 1] == ASCII.slash { return index }
            index += 1
        }
        return nil
    }

    /// Whether a string or a template literal may go on past the line: an odd number of
    /// backticks, or a backslash at its end (before any `\r`).
    func mayContinue(_ line: Range<Int>) -> Bool {
        var backticks = 0
        for index in line where bytes[index] == ASCII.backtick { backticks += 1 }
        var end = line.upperBound
        while end > line.lowerBound, bytes[end - 1] == ASCII.return || bytes[end - 1] == ASCII.newline { end -= 1 }
        return backticks % 2 == 1 || (end > line.lowerBound && bytes[end - 1] == ASCII.backslash)
    }

    /// `line` without the `// …` comment at its end (`WebFile.withoutTrailingComment`).
    func withoutTrailingComment(_ line: Range<Int>) -> Range<Int> {
        // Where the reading is: in a string or template (its quote), or in code inside a template
        // (`$`) or inside braces within that code (`{`); empty: the line's own code.
        var within: [UInt8] = []
        var top: UInt8 = 0  // within.last, or 0 (read on every byte: a debug build's `last` is slow)
        func enter(_ mark: UInt8) { within.append(mark); top = mark }
        func leave() { within.removeLast(); top = within.last ?? 0 }
        var index = line.lowerBound
        while index < line.upperBound {
            let character = bytes[index]
            if top == ASCII.quote || top == ASCII.doubleQuote || top == ASCII.backtick {
                if character == ASCII.backslash { index += 1 }
                else if character == top { leave() }
                else if top == ASCII.backtick, character == ASCII.dollar, index + 1 < line.upperBound, bytes[index + 1] == ASCII.openBrace {
                    enter(ASCII.dollar)
                    index += 1
                }
            } else if character == ASCII.quote || character == ASCII.doubleQuote || character == ASCII.backtick || character == ASCII.openBrace {
                enter(character)
            } else if character == ASCII.closeBrace {
                if top != 0 { leave() }
            } else if character == ASCII.slash {
                guard top == 0, index + 1 < line.upperBound, bytes[index + 1] == ASCII.slash,
                      index > line.lowerBound, bytes[index - 1] == ASCII.space else { return line }
                var end = index
                while end > line.lowerBound, bytes[end - 1] == ASCII.space { end -= 1 }
                return line.lowerBound..<end
            }
            index += 1
        }
        return line
    }
}
