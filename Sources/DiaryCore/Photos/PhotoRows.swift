import Foundation

/// One user's photos as a backend keeps them: rows read and written, nothing decided (the
/// rules are `DiaryPhotos`'). Scoped to the diary's owner: another user's photo is as good as
/// absent, even one with the same bytes (each diary keeps its own copy).
public protocol PhotoRows: Sendable {
    /// The photo with this name, `nil` when the diary has none.
    func photo(id: PhotoID) async throws -> StoredPhoto?

    /// Those of these photos that the diary has.
    func photos(ids: [PhotoID]) async throws -> [PhotoID: StoredPhoto]

    /// Stores `photo` with its bytes, read from `content` a part (`StoredPhoto.partSize`) at a
    /// time, in one transaction: all of it or nothing. When the diary has the photo already,
    /// only its `storedAt` moves. Whether it was new.
    ///
    /// When the photo is new and `allowing` is given, it is called in that transaction with the
    /// bytes the diary's other photos and thumbnails take, and may refuse by throwing (nothing is
    /// then stored). No other store or thumbnail of the diary that is `allowing`-checked comes
    /// between the count and the write: uploads at once are counted one after another.
    func store(_ photo: StoredPhoto, content: any PhotoContent,
               allowing: (@Sendable (_ otherBytes: Int64) throws -> Void)?) async throws -> Bool

    /// Keeps `bytes` as the photo's thumbnail (replacing one there); `false` when the diary has
    /// no such photo. `allowing`, when given, is called as `store`'s is, in the same transaction,
    /// with the bytes the diary's photos and thumbnails take besides this photo's thumbnail.
    func storeThumbnail(_ thumbnail: PhotoThumbnail, bytes: Data, of id: PhotoID,
                        allowing: (@Sendable (_ otherBytes: Int64) throws -> Void)?) async throws -> Bool

    /// Part `index` (from 0) of the photo's bytes; `nil` when there is no such photo or part.
    func part(_ index: Int, of id: PhotoID) async throws -> Data?

    /// The thumbnail's bytes; `nil` when the photo has none (or there is no such photo).
    func thumbnailBytes(of id: PhotoID) async throws -> Data?

    /// The bytes all the diary's photos and thumbnails take: what a quota counts.
    func storedBytes() async throws -> Int64

    /// Deletes for good the photos that no entry of the diary (nor of its trash) holds and that
    /// were stored before `moment` or are among `including` (those of entries just deleted for
    /// good); how many.
    func removeUnused(storedBefore moment: Date, including: Set<PhotoID>) async throws -> Int
}

extension PhotoRows {
    /// Stores a photo with no quota to check.
    public func store(_ photo: StoredPhoto, content: any PhotoContent) async throws -> Bool {
        try await store(photo, content: content, allowing: nil)
    }

    /// Keeps a thumbnail with no quota to check.
    public func storeThumbnail(_ thumbnail: PhotoThumbnail, bytes: Data, of id: PhotoID) async throws -> Bool {
        try await storeThumbnail(thumbnail, bytes: bytes, of: id, allowing: nil)
    }
}

/// Bytes to store, read a range at a time: a photo is written part by part from a file mapped
/// into memory (or from the pieces left of it once its metadata is taken out) without ever
/// being copied whole.
public protocol PhotoContent: Sendable {
    var byteCount: Int { get }
    /// The bytes in `range`, which lies within `0..<byteCount`.
    func bytes(in range: Range<Int>) -> Data
}

extension Data: PhotoContent {
    public var byteCount: Int { count }

    public func bytes(in range: Range<Int>) -> Data {
        self[(startIndex + range.lowerBound)..<(startIndex + range.upperBound)]
    }
}
