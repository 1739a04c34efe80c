import Foundation

// STAND-IN until branch photo-bytes merges (it replaces this file).

public enum PhotoFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, png, webp, gif, heic
    public var mediaType: String { self == .heic ? "image/heic" : "image/\(rawValue)" }
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}

public struct PhotoFacts: Sendable, Equatable {
    public var format: PhotoFormat
    public var width: Int
    public var height: Int
}

public enum PhotoError: Error, Equatable, Sendable {
    case notAPhoto
    case unreadable
    case tooManyPixels
}

public enum PhotoInspection {
    public static func inspect(_ bytes: UnsafeRawBufferPointer) throws(PhotoError) -> PhotoFacts {
        let b = Array(bytes.prefix(64 * 1024))
        if b.count > 24, b[0] == 0x89, b[1] == 0x50 {
            let w = Int(b[16]) << 24 | Int(b[17]) << 16 | Int(b[18]) << 8 | Int(b[19])
            let h = Int(b[20]) << 24 | Int(b[21]) << 16 | Int(b[22]) << 8 | Int(b[23])
            guard w > 0, h > 0 else { throw .unreadable }
            guard w <= 20_000, h <= 20_000 else { throw .tooManyPixels }
            return PhotoFacts(format: .png, width: w, height: h)
        }
        throw .notAPhoto
    }
}

public enum PhotoPart: Sendable, Equatable {
    case original(Range<Int>)
    case bytes([UInt8])
}

public enum PhotoMetadata {
    public static func cleanedParts(of bytes: UnsafeRawBufferPointer, format: PhotoFormat) throws(PhotoError) -> [PhotoPart] {
        [.original(0..<bytes.count)]
    }
}

extension PhotoError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notAPhoto: "Diary keeps JPEG, PNG, WebP, GIF and HEIC photos; this file is none of them."
        case .unreadable: "unreadable"
        case .tooManyPixels: "too many pixels"
        }
    }
}
