import CompressNIO
import DiaryCore
import Foundation
import Hummingbird
import NIOCore

/// JSON in and out, the same way for every route.
enum JSONResponse {
    /// JSON for `value`. Given the `request`, an answer over a kilobyte goes compressed to a
    /// client that accepts it (`encode`): a page of the list shrinks to a third.
    static func make(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], for request: Request? = nil
    ) throws -> Response {
        make(json: ByteBuffer(bytes: try DiaryJSON.encoder().encode(value)), status: status, headers: headers, for: request)
    }

    /// JSON already written, as the busiest answers (entries and pages) are, by `EntryJSONWriter`.
    static func make(json body: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], for request: Request? = nil) -> Response {
        make(encode(json: body, for: request), status: status, headers: headers)
    }

    /// How an answer's body goes out.
    enum Coding: String, Sendable {
        case identity
        case gzip
        case brotli = "br"

        /// The best that `request` accepts: Brotli (every browser asks for it), else gzip.
        init(for request: Request?) {
            let accepted = AcceptEncoding.codings(request?.headers[.acceptEncoding])
            self = accepted.contains("br") ? .brotli : accepted.contains("gzip") ? .gzip : .identity
        }
    }

    /// A body as it goes out, and its coding.
    struct Encoded: Sendable {
        var body: ByteBuffer
        var coding: Coding
    }

    /// Brotli's quality for an answer made for one request: 5 compresses a page of the list
    /// (8 KB of JSON) in well under a millisecond, 13 % smaller than gzip at level 1 in about
    /// twice its time. Quality 7 and up, another 8 % off, takes three times as long.
    static let brotliQuality: Int32 = 5

    /// `body` compressed as `request` accepts (`Coding`), when it is over a kilobyte.
    static func encode(json body: ByteBuffer, for request: Request?, brotliQuality: Int32 = brotliQuality) -> Encoded {
        encode(json: body, as: Coding(for: request), brotliQuality: brotliQuality)
    }

    static func encode(json body: ByteBuffer, as coding: Coding, brotliQuality: Int32 = brotliQuality) -> Encoded {
        guard body.readableBytes > 1024 else { return Encoded(body: body, coding: .identity) }
        switch coding {
        case .brotli:
            if let compressed = body.withUnsafeReadableBytes({ Brotli.compress($0, quality: brotliQuality) }) {
                return Encoded(body: compressed, coding: .brotli)
            }
        case .gzip:
            var body = body  // compress(with:) reads it
            if let compressed = try? body.compress(with: .gzip(configuration: .init(compressionLevel: 1))) {
                return Encoded(body: compressed, coding: .gzip)
            }
        case .identity:
            break
        }
        return Encoded(body: body, coding: .identity)
    }

    static func make(_ encoded: Encoded, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        if encoded.coding != .identity {
            fields[.contentEncoding] = encoded.coding.rawValue
            fields[.vary] = "Accept-Encoding"
        }
        return Response(status: status, headers: fields, body: .init(byteBuffer: encoded.body))
    }

    /// An entry, with its version as the ETag that an update's If-Match must carry.
    static func entry(_ entry: Entry, status: HTTPResponse.Status = .ok, location: Bool = false, for request: Request? = nil) -> Response {
        var headers: HTTPFields = [.eTag: "\"\(entry.version)\""]
        if location { headers[.location] = "/api/v1/entries/\(entry.id.diaryString)" }
        var json: [UInt8] = []
        json.reserveCapacity(entry.body.utf8.count + entry.title.utf8.count + 300)
        EntryJSONWriter().append(entry, to: &json)
        return make(json: ByteBuffer(bytes: json), status: status, headers: headers, for: request)
    }

    /// A page of a list (the diary or the trash), with the cursor of the next one.
    static func page(_ page: EntryPage, for request: Request) -> Response {
        make(encodedPage(page, for: request))
    }

    static func encodedPage(_ page: EntryPage, for request: Request) -> Encoded {
        encodedPage(page, as: Coding(for: request))
    }

    static func encodedPage(_ page: EntryPage, as coding: Coding, brotliQuality: Int32 = brotliQuality) -> Encoded {
        var json: [UInt8] = []
        json.reserveCapacity(512 * (page.entries.count + 1))
        EntryJSONWriter().append(page, to: &json)
        return encode(json: ByteBuffer(bytes: json), as: coding, brotliQuality: brotliQuality)
    }
}

extension Request {
    /// The body as `T`, refusing a body that is not JSON (415), too large (413, before reading
    /// past the limit), malformed or of the wrong shape (400), each with a message that says so.
    mutating func decodeJSON<T: Decodable>(_ type: T.Type) async throws -> T {
        try Self.decode(T.self, from: try await jsonBody())
    }

    private mutating func jsonBody() async throws -> ByteBuffer {
        let contentType = headers[.contentType]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/json") else {
            throw APIError(status: .unsupportedMediaType, code: .unsupportedMediaType,
                           message: "Send the entry as JSON, with Content-Type: application/json.")
        }
        if let length = headers[.contentLength].flatMap(Int.init), length > APILimits.maximumRequestBytes {
            throw APIError(status: .contentTooLarge, code: .tooLarge, message: APILimits.tooLargeMessage)
        }
        do {
            return try await collectBody(upTo: APILimits.maximumRequestBytes)
        } catch is NIOTooManyBytesError {
            // A chunked body has no Content-Length to refuse it by up front.
            throw APIError(status: .contentTooLarge, code: .tooLarge, message: APILimits.tooLargeMessage)
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        let data = Data(buffer: buffer)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            // JSONDecoder says only "not valid JSON" of half a surrogate pair: name it.
            if let offset = LoneSurrogates.firstOffset(in: data) {
                throw APIError(status: .badRequest, code: .notText,
                               message: "The body cannot be stored as text: \(LoneSurrogates.reason(at: offset)).")
            }
            throw APIError.badRequest(Self.describe(error))
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func field(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "The body" : "\"" + path.map(\.stringValue).joined(separator: ".") + "\""
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            if context.codingPath.isEmpty { return "The body must be a JSON object such as {\"title\": \"…\", \"body\": \"…\"}." }
            return "\(field(context.codingPath)) has the wrong type: \(context.debugDescription)"
        case .keyNotFound(let key, _):
            return "\"\(key.stringValue)\" is missing."
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "The body is not valid JSON (\(context.debugDescription))." }
            return "\(field(context.codingPath)) is not valid: \(context.debugDescription)"
        @unknown default:
            return "The body is not valid JSON."
        }
    }
}
