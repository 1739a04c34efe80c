import DiaryCore
import Foundation
import HTTPTypes
import Hummingbird

/// A diary's photos: sent as their bytes (`POST /photos`), then named in an entry's `photos`.
/// Read back only by their owner, by name, cached by the browser for good (a name's bytes never
/// change), their type told from their bytes, never from what the upload said.
struct PhotosController {
    typealias Context = DiaryRequestContext
    let photos: @Sendable (UserID) -> DiaryPhotos
    let uploads = UploadsInFlight.photos

    func addRoutes(to group: RouterGroup<Context>) {
        group.post("photos", use: add)
        group.get("photos/:photo", use: show)
        group.get("photos/:photo/thumbnail", use: thumbnail)
        group.put("photos/:photo/thumbnail", use: addThumbnail)
    }

    @Sendable func add(_ request: Request, context: Context) async throws -> Response {
        let user = try context.requireUser().id
        let photos = photos(user)
        let (photo, isNew) = try await uploads.run(for: user) {
            let bytes = try await UploadedFile.receive(request, limit: DiaryPhotos.maximumUploadBytes,
                                                       tooLarge: DiaryPhotoError.tooLarge(limitBytes: DiaryPhotos.maximumUploadBytes).description)
            guard !bytes.isEmpty else { throw APIError.badRequest("The body is empty: send the photo's bytes (a JPEG, PNG, WebP, GIF or HEIC file).") }
            return try await photos.add(bytes)
        }
        return try JSONResponse.make(PhotoJSON(photo), status: isNew ? .created : .ok,
                                     headers: [.location: "/api/v1/photos/\(photo.id.hex)"], for: request)
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let photos = photos(try context.requireUser().id)
        let id = try context.photoID()
        guard let photo = try await photos.photo(id: id) else { throw APIError.noSuchPhoto }
        var headers = Self.headers(type: photo.format.mediaType, eTag: "\"\(id.hex)\"", forever: true)
        if Self.unchanged(request, eTag: headers[.eTag]!) { return Response(status: .notModified, headers: headers) }
        headers[.contentLength] = String(photo.byteCount)
        // A part at a time, as it is read: a photo is never whole in the server's memory.
        return Response(status: .ok, headers: headers, body: ResponseBody(contentLength: photo.byteCount) { writer in
            for index in 0..<StoredPhoto.partCount(photo.byteCount) {
                guard let part = try await photos.part(index, of: id) else { throw APIError.noSuchPhoto }
                try await writer.write(ByteBuffer(bytes: part))
            }
            try await writer.finish(nil)
        })
    }

    /// The small copy; until a client has made one, the photo itself (not kept for good, so the
    /// small copy is asked for again once there is one).
    @Sendable func thumbnail(_ request: Request, context: Context) async throws -> Response {
        let photos = photos(try context.requireUser().id)
        let id = try context.photoID()
        guard let photo = try await photos.photo(id: id) else { throw APIError.noSuchPhoto }
        guard let thumbnail = photo.thumbnail else {
            var response = try await show(request, context: context)
            response.headers[.cacheControl] = "private, no-cache"
            return response
        }
        var headers = Self.headers(type: thumbnail.format.mediaType, eTag: "\"\(id.hex)-small\"", forever: true)
        if Self.unchanged(request, eTag: headers[.eTag]!) { return Response(status: .notModified, headers: headers) }
        guard let bytes = try await photos.thumbnailBytes(of: id) else { throw APIError.noSuchPhoto }
        headers[.contentLength] = String(bytes.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Keeps the small copy a client made. Once kept it stays (browsers keep it for good): a
    /// second one is answered with the first.
    @Sendable func addThumbnail(_ request: Request, context: Context) async throws -> Response {
        let photos = photos(try context.requireUser().id)
        let id = try context.photoID()
        guard let photo = try await photos.photo(id: id) else { throw APIError.noSuchPhoto }
        if photo.thumbnail != nil { return try JSONResponse.make(PhotoJSON(photo), for: request) }
        let limit = PhotoThumbnail.maximumBytes
        let bytes = try await UploadedFile.receive(
            request, limit: limit, tooLarge: "A thumbnail may have at most \(limit / 1024) KB; it is a small copy, at most \(PhotoThumbnail.maximumSide) pixels on its long side.")
        return try JSONResponse.make(PhotoJSON(try await photos.addThumbnail(bytes, to: id)), for: request)
    }

    static func headers(type: String, eTag: String, forever: Bool) -> HTTPFields {
        [
            .contentType: type,
            .eTag: eTag,
            // Only this browser, for good: a name's bytes never change.
            .cacheControl: forever ? "private, max-age=31536000, immutable" : "private, no-cache",
            // Not to be shown inside another site's page, nor run as anything but an image.
            .crossOriginResourcePolicy: "same-origin",
            .contentSecurityPolicy: "default-src 'none'; sandbox",
            .contentDisposition: "inline",
        ]
    }

    static func unchanged(_ request: Request, eTag: String) -> Bool {
        guard let asked = request.headers[.ifNoneMatch] else { return false }
        return asked == "*" || asked.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == eTag }
    }
}

/// A photo as the API describes it.
struct PhotoJSON: Encodable {
    var id: String
    var type: String
    var width: Int
    var height: Int
    var bytes: Int
    var thumbnail: Bool

    init(_ photo: StoredPhoto) {
        id = photo.id.hex
        type = photo.format.mediaType
        width = photo.width
        height = photo.height
        bytes = photo.byteCount
        thumbnail = photo.thumbnail != nil
    }
}

extension APIError {
    static let noSuchPhoto = APIError(status: .notFound, code: .notFound, message: "There is no such photo in this diary.")
}

extension HTTPField.Name {
    static let crossOriginResourcePolicy = Self("Cross-Origin-Resource-Policy")!
}
