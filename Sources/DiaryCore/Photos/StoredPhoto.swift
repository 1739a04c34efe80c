import Foundation

/// A photo as a diary keeps it: its name (the SHA-256 of its bytes), what kind of image its
/// bytes are, its size in pixels and in bytes, and the small copy a list shows, once a client
/// that can draw it has made one.
public struct StoredPhoto: Sendable, Hashable {
    public var id: PhotoID
    public var format: PhotoFormat
    public var width: Int
    public var height: Int
    public var byteCount: Int
    /// When it was last stored (uploaded again, it is stored again): a photo no entry uses is
    /// let go only some time after this, so one sent ahead of its entry is never lost.
    public var storedAt: Date
    public var thumbnail: PhotoThumbnail?

    public init(id: PhotoID, format: PhotoFormat, width: Int, height: Int, byteCount: Int, storedAt: Date,
                thumbnail: PhotoThumbnail? = nil) {
        self.id = id
        self.format = format
        self.width = width
        self.height = height
        self.byteCount = byteCount
        self.storedAt = storedAt.roundedToMilliseconds
        self.thumbnail = thumbnail
    }

    /// A photo's bytes are kept in parts of this size: read and written one part at a time, a
    /// photo is never whole in the server's memory, and the same rows work on every backend.
    public static let partSize = 256 * 1024

    /// How many parts `byteCount` bytes take.
    public static func partCount(_ byteCount: Int) -> Int { (byteCount + partSize - 1) / partSize }
}

/// The small copy of a photo that a list row shows.
public struct PhotoThumbnail: Sendable, Hashable {
    public var format: PhotoFormat
    public var width: Int
    public var height: Int
    public var byteCount: Int

    public init(format: PhotoFormat, width: Int, height: Int, byteCount: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.byteCount = byteCount
    }

    /// The longest side a thumbnail may have: a list row shows it at most 96 CSS pixels wide,
    /// 3× on the densest phone screens is 288; 512 leaves room.
    public static let maximumSide = 512
    /// A thumbnail at that size is tens of kilobytes; anything near this is not one.
    public static let maximumBytes = 512 * 1024
}
