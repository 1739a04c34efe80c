import Foundation

/// Takes out of a photo what could tell who took it and where: EXIF (GPS, the camera's serial,
/// the time), XMP, IPTC, comments and text. A diary is private, and a photo shared from it, or a
/// store that leaks, must not give away a home's position: nothing of the kind is kept.
///
/// The pixels are never touched (no decoding, no re-encoding, no loss): only the file's metadata
/// parts are left out, rewritten or zeroed, format by format:
/// - JPEG: only APP0 (JFIF, without its thumbnail), APP2's ICC profile and APP14 (Adobe colour)
///   are kept of the APPn segments; COM goes. An EXIF Orientation other than 1 comes back as a
///   minimal APP1 holding that tag alone. Bytes after the image's end (EOI), where phones append
///   extra images (MPF, gain maps) with EXIF of their own, go too.
/// - PNG: eXIf, tEXt, zTXt, iTXt and tIME go (an Orientation other than 1 comes back as a minimal
///   eXIf); iCCP and the rest stay; bytes after IEND go.
/// - WebP: EXIF and XMP chunks go and their flags are cleared in VP8X (an Orientation other than 1
///   comes back as a minimal EXIF chunk); the RIFF size is written anew.
/// - GIF: comments, application extensions other than the looping ones (NETSCAPE2.0,
///   ANIMEXTS1.0) and extensions of unknown kinds go: XMP rides in an application extension.
///   Bytes after the trailer go. (GIF is cleaned rather than kept as is for that XMP.)
/// - HEIC: the payloads of its Exif and `mime` (XMP) items are overwritten in place with an
///   empty EXIF or XMP padded to the same length, so that every offset in the file stays valid.
///   The rotation (`irot`) stays. See `HEIFBoxes.cleanedParts()` for what it cannot follow.
public enum PhotoMetadata {
    /// The parts whose concatenation is the photo without its metadata. `bytes` is borrowed and
    /// never copied; its structure is followed to the end, and a file whose structure cannot be
    /// followed, or that is not `format`, is refused rather than kept with what it might hide.
    public static func cleanedParts(of bytes: some ContiguousBytes, format: PhotoFormat) throws(PhotoError) -> [PhotoPart] {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(PhotoError) in try cleanedParts(buffer, format: format) }
        }
        return try result.get()
    }

    /// The cleaned photo in one array, for small photos and tests; the server streams
    /// `cleanedParts(of:format:)` instead.
    public static func cleaned(_ bytes: some ContiguousBytes, format: PhotoFormat) throws(PhotoError) -> [UInt8] {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(PhotoError) -> [UInt8] in
                let parts = try cleanedParts(buffer, format: format)
                var cleaned: [UInt8] = []
                cleaned.reserveCapacity(parts.reduce(0) { $0 + $1.count })
                for part in parts {
                    switch part {
                    case .original(let range): cleaned.append(contentsOf: buffer[range])
                    case .bytes(let bytes): cleaned.append(contentsOf: bytes)
                    }
                }
                return cleaned
            }
        }
        return try result.get()
    }

    static func cleanedParts(_ buffer: UnsafeRawBufferPointer, format: PhotoFormat) throws(PhotoError) -> [PhotoPart] {
        let bytes = HeaderBytes(base: buffer, format: format)
        guard PhotoFormat.sniffed(buffer) == format else { throw bytes.unreadable }
        return switch format {
        case .jpeg: try JPEGSegments(bytes).cleanedParts()
        case .png: try PNGChunks(bytes).cleanedParts()
        case .gif: try GIFBlocks.cleanedParts(bytes)
        case .webp: try WebPChunks(bytes).cleanedParts()
        case .heic: try HEIFBoxes(bytes).cleanedParts()
        }
    }
}
