import Foundation

/// Takes out of a photo what could tell who took it and where: EXIF (GPS, the camera's serial,
/// the time), XMP, IPTC, comments and text. A diary is private, and a photo shared from it, or a
/// store that leaks, must not give away a home's position: nothing of the kind is kept.
///
/// It keeps what is known to draw the picture, rather than leaving out what is known to tell
/// about its taker: Content Credentials (C2PA), a maker's private parts, and whatever a format
/// adds next go without being named, and a known part keeps its fields alone, not bytes after
/// them. The pixels are never touched (no decoding, no re-encoding, no loss): the file's other
/// parts are left out, rewritten or zeroed, format by format:
/// - JPEG: the frame (SOFn), tables (DQT, DHT, DAC), restart interval (DRI), scans and restart
///   markers; JFIF (APP0, without its thumbnail), the ICC profile (APP2) and Adobe's colour
///   transform (APP14). An EXIF Orientation other than 1 comes back as a minimal APP1 holding
///   that tag alone. Bytes after the image's end (EOI), where phones append extra images (MPF,
///   gain maps) with EXIF of their own, go too. See `JPEGSegments.kept(_:)`.
/// - PNG: the chunks in `PNGChunks.kept`, each at a length PNG allows it (the image, palette,
///   transparency, colour, HDR light levels, sBIT, pHYs, an animation's chunks); an Orientation
///   other than 1 comes back as a minimal eXIf; bytes after IEND go.
/// - WebP: the image, alpha, ICC profile and animation chunks (`WebPChunks.kept`), VP8X written
///   anew with their flags, each frame (ANMF) with its image alone; an Orientation other than 1
///   comes back as a minimal EXIF chunk; the RIFF size is written anew.
/// - GIF: the header, colour tables and images; graphic control and looping (NETSCAPE2.0,
///   ANIMEXTS1.0) extensions, each with its fields alone. Comments, plain text, other
///   applications' extensions (XMP rides in one) and unknown ones go, and bytes after the
///   trailer. (GIF is cleaned rather than kept as is for these.)
/// - HEIC: the same length, so that every offset in the file stays valid: boxes and properties
///   not known to draw the picture become `free` boxes of zeros, Exif and XMP items become
///   empty ones, and other items' bytes, and bytes no item names, become zeros. The rotation
///   (`irot`) stays. See `HEIFBoxes.cleanedParts()`.
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
