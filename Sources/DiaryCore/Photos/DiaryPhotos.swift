import Crypto
import Foundation

/// One user's photos, with their rules, over whichever backend keeps their rows (`PhotoRows`):
/// what a photo must be to be kept, what is taken out of it first, and how much a diary may hold.
/// The server and the command line add photos through here and nothing else.
public struct DiaryPhotos: Sendable {
    /// The backend's rows: reached through this type's methods only, so every photo kept obeys
    /// its rules (`scripts/check-seam` holds the rest of the code to it).
    let rows: any PhotoRows
    /// The most bytes the diary's photos may take together; `nil`: no limit (the default).
    public var quotaBytes: Int64?

    public init(rows: any PhotoRows, quotaBytes: Int64? = nil) {
        self.rows = rows
        self.quotaBytes = quotaBytes
    }

    /// The most bytes a photo may have as sent: a phone's camera photo is 2–12 MB; a browser
    /// sends a smaller copy (2,048 pixels on its long side) of whatever it is given.
    public static let maximumUploadBytes = 20 * 1_048_576

    /// How long a photo that no entry holds is kept: one sent ahead of its entry (an outbox
    /// emptied after a day offline sends photos first) must still be there when the entry comes.
    public static let unusedGrace: TimeInterval = 7 * 24 * 3600

    /// Keeps the photo whose bytes are `data` (a file mapped into memory, or the body of a
    /// request): checked to be a photo by its bytes and not too large in bytes or pixels, its
    /// metadata taken out (the place it was taken, the camera's serial: see `PhotoMetadata`),
    /// named by the SHA-256 of what is left. The same photo again is the same stored copy.
    /// Returns it, and whether it was new.
    public func add(_ data: Data, now: Date = Date()) async throws -> (photo: StoredPhoto, isNew: Bool) {
        guard data.count <= Self.maximumUploadBytes else { throw DiaryPhotoError.tooLarge(limitBytes: Self.maximumUploadBytes) }
        let (facts, parts) = try Self.inspect(data)
        let content = CleanedPhoto(original: data, parts: parts)
        let id = content.digest()
        let existing = try await rows.photo(id: id)
        // Its size as shown (after its orientation): what a page lays out.
        let photo = StoredPhoto(id: id, format: facts.format, width: facts.displayedWidth, height: facts.displayedHeight,
                                byteCount: content.byteCount, storedAt: now, thumbnail: existing?.thumbnail)
        let isNew = try await rows.store(photo, content: content, allowing: quotaCheck(adding: content.byteCount))
        return (photo, isNew)
    }

    /// The quota's check of `byteCount` more bytes, run by the backend in the transaction that
    /// stores them (checked in one and written in another, uploads at once passed it together);
    /// `nil` when the diary has no quota.
    private func quotaCheck(adding byteCount: Int) -> (@Sendable (Int64) throws -> Void)? {
        guard let quotaBytes else { return nil }
        return { otherBytes in
            if otherBytes + Int64(byteCount) > quotaBytes { throw DiaryPhotoError.overQuota(quotaBytes: quotaBytes) }
        }
    }

    /// Keeps `data` as the small copy of photo `id` that lists show. Made by a client that can
    /// draw the photo (the web app does, as it adds one): the server never decodes an image.
    /// Checked like a photo, and to be small: JPEG, PNG or WebP, at most
    /// `PhotoThumbnail.maximumSide` pixels on its long side and `maximumBytes` bytes.
    public func addThumbnail(_ data: Data, to id: PhotoID) async throws -> StoredPhoto {
        guard data.count <= PhotoThumbnail.maximumBytes else {
            throw DiaryPhotoError.notAThumbnail("it has \(data.count.formatted()) bytes, and a thumbnail at most \(PhotoThumbnail.maximumBytes.formatted())")
        }
        let (facts, parts) = try Self.inspect(data)
        guard [.jpeg, .png, .webp].contains(facts.format) else {
            throw DiaryPhotoError.notAThumbnail("it is \(facts.format.rawValue.uppercased()); a thumbnail is JPEG, PNG or WebP")
        }
        guard max(facts.width, facts.height) <= PhotoThumbnail.maximumSide else {
            throw DiaryPhotoError.notAThumbnail("it is \(facts.width) × \(facts.height) pixels; a thumbnail's long side is at most \(PhotoThumbnail.maximumSide)")
        }
        let content = CleanedPhoto(original: data, parts: parts)
        let bytes = content.bytes(in: 0..<content.byteCount)
        let thumbnail = PhotoThumbnail(format: facts.format, width: facts.displayedWidth, height: facts.displayedHeight,
                                       byteCount: bytes.count)
        // A thumbnail takes room as a photo does, and counts toward the quota the same way.
        guard try await rows.storeThumbnail(thumbnail, bytes: bytes, of: id, allowing: quotaCheck(adding: bytes.count)),
              var photo = try await rows.photo(id: id) else {
            throw DiaryPhotoError.notFound(id.hex)
        }
        photo.thumbnail = thumbnail
        return photo
    }

    /// What `data` is (from its header alone) and which of its bytes to keep.
    private static func inspect(_ data: Data) throws(PhotoError) -> (PhotoFacts, [PhotoPart]) {
        let facts = try PhotoFacts(of: data)
        return (facts, try PhotoMetadata.cleanedParts(of: data, format: facts.format))
    }

    /// The photo with this name, if the diary has it.
    public func photo(id: PhotoID) async throws -> StoredPhoto? {
        try await rows.photo(id: id)
    }

    /// Those of these photos that the diary has: an import keeps only the photos it lacks.
    public func photos(ids: [PhotoID]) async throws -> [PhotoID: StoredPhoto] {
        try await rows.photos(ids: ids)
    }

    /// Part `index` (from 0, `StoredPhoto.partSize` bytes each) of the photo's bytes; `nil` when
    /// there is no such photo or part. A photo is sent a part at a time, as it is read, so it is
    /// never whole in the server's memory.
    public func part(_ index: Int, of id: PhotoID) async throws -> Data? {
        try await rows.part(index, of: id)
    }

    /// The bytes of the photo's small copy; `nil` when no client has made one yet (or there is no
    /// such photo).
    public func thumbnailBytes(of id: PhotoID) async throws -> Data? {
        try await rows.thumbnailBytes(of: id)
    }

    /// Lets go at once of those of `ids` that no entry (nor the trash) holds, however recently
    /// they were stored: an import refused after it kept its photos takes back the ones it added,
    /// rather than leave them counted against the writer's allowance until unused photos expire
    /// (`unusedGrace`). How many went.
    @discardableResult
    public func letGo(ofUnheld ids: Set<PhotoID>) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try await rows.removeUnused(storedBefore: .distantPast, including: ids)
    }
}

/// Why a photo was not kept, in words its sender can act on. (What its bytes are is
/// `PhotoError`'s.)
public enum DiaryPhotoError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLarge(limitBytes: Int)
    case overQuota(quotaBytes: Int64)
    case notAThumbnail(String)
    case notFound(String)

    public var description: String {
        switch self {
        case .tooLarge(let limit):
            "The photo is too large: a photo may have at most \(limit / 1_048_576) MB. Send a smaller copy."
        case .overQuota(let quota):
            "The diary's photos would take more than its \(ByteCountFormatter.string(fromByteCount: quota, countStyle: .file)) allowance: remove some photos, or ask whoever runs the server for more room."
        case .notAThumbnail(let why):
            "This is not a thumbnail: \(why)."
        case .notFound(let id):
            "The diary has no photo \(id)."
        }
    }
}

/// A photo's bytes with its metadata taken out: the pieces of the original that are kept, and
/// the few bytes put in their place, read as one run of bytes without being copied together.
struct CleanedPhoto: PhotoContent {
    let original: Data
    let parts: [PhotoPart]
    let byteCount: Int

    init(original: Data, parts: [PhotoPart]) {
        self.original = original
        self.parts = parts
        byteCount = parts.reduce(0) { total, part in
            switch part {
            case .original(let range): total + range.count
            case .bytes(let bytes): total + bytes.count
            }
        }
    }

    func bytes(in range: Range<Int>) -> Data {
        var out = Data(capacity: range.count)
        var offset = 0
        for part in parts {
            let length: Int
            switch part {
            case .original(let piece): length = piece.count
            case .bytes(let bytes): length = bytes.count
            }
            // The part of `range` that falls in this piece, if any (a piece may lie wholly before it).
            let low = max(range.lowerBound, offset), high = min(range.upperBound, offset + length)
            if low < high {
                let within = (low - offset)..<(high - offset)
                switch part {
                case .original(let piece):
                    let start = original.startIndex + piece.lowerBound
                    out.append(original[(start + within.lowerBound)..<(start + within.upperBound)])
                case .bytes(let bytes):
                    out.append(contentsOf: bytes[within])
                }
            }
            offset += length
            if offset >= range.upperBound { break }
        }
        return out
    }

    /// The photo's name: the SHA-256 of these bytes, read a part at a time.
    func digest() -> PhotoID {
        var hash = SHA256()
        var offset = 0
        while offset < byteCount {
            let end = min(offset + StoredPhoto.partSize, byteCount)
            hash.update(data: bytes(in: offset..<end))
            offset = end
        }
        return PhotoID(digest: hash.finalize())
    }
}
