/// One piece of a cleaned photo: a range of the original file's bytes, or a few bytes written
/// anew (a rewritten header, a minimal EXIF, zeros over a HEIC's EXIF).
///
/// A cleaned photo is its parts one after another, so the server can stream it from the mmapped
/// upload without ever copying the whole file.
public enum PhotoPart: Sendable, Hashable {
    /// These bytes of the original, offsets counted from its first byte.
    case original(Range<Int>)
    case bytes([UInt8])

    /// How many bytes this part adds to the cleaned photo.
    public var count: Int {
        switch self {
        case .original(let range): range.count
        case .bytes(let bytes): bytes.count
        }
    }
}

/// The parts of a cleaned photo as they are decided, front to back; ranges of the original that
/// follow each other become one.
struct PhotoParts {
    private(set) var parts: [PhotoPart] = []

    mutating func keep(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        if case .original(let last) = parts.last, last.upperBound == range.lowerBound {
            parts[parts.count - 1] = .original(last.lowerBound..<range.upperBound)
        } else {
            parts.append(.original(range))
        }
    }

    mutating func add(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        parts.append(.bytes(bytes))
    }
}
