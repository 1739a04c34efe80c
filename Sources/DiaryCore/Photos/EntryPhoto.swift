import Foundation

/// A photo as an entry holds it: which one (stored once in the diary, by its content), the
/// writer's caption, and its size in pixels as shown, so a page lays it out before it arrives.
///
/// An entry's photos are part of what its writer made, like its words: adding, removing,
/// reordering or captioning one is a new version of the entry, and conflicts as an edit does.
public struct EntryPhoto: Sendable, Hashable, Codable {
    public var id: PhotoID
    public var caption: String
    public var width: Int
    public var height: Int

    public init(id: PhotoID, caption: String = "", width: Int = 0, height: Int = 0) {
        self.id = id
        self.caption = caption
        self.width = width
        self.height = height
    }

    /// The most photos one entry holds: a day's worth, and what a list row or a page of the
    /// viewer can still show at once.
    public static let maximumPerEntry = 30

    /// A caption is a line or a few: at most this many characters (Unicode scalars, as titles).
    public static let maximumCaptionLength = 1_000

    /// Whether two lists hold the same photos in the same order with the same captions, byte
    /// for byte (as `EntryText.isSame`: Swift's `==` takes canonical equivalents for equal).
    public static func same(_ a: [EntryPhoto], _ b: [EntryPhoto]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { $0.id == $1.id && $0.caption.utf8.elementsEqual($1.caption.utf8)
                && $0.width == $1.width && $0.height == $1.height }
    }
}

extension [EntryPhoto] {
    /// How a backend keeps an entry's photos in one column: JSON, or "" for none (most entries,
    /// which then cost nothing to read or write).
    public var storedText: String {
        guard !isEmpty, let data = try? DiaryJSON.encoder().encode(self) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The photos of a column written by `storedText`; none for "" or anything unreadable (a
    /// row written by hand), rather than losing the entry.
    public init(storedText: String) {
        guard !storedText.isEmpty, let photos = try? JSONDecoder().decode([EntryPhoto].self, from: Data(storedText.utf8)) else {
            self = []
            return
        }
        self = photos
    }
}
