/// A WebP file: a RIFF container ("RIFF", a size, "WEBP") of chunks, each a four-character code,
/// a little-endian size, the data and a pad byte to an even length.
///
/// The first chunk says the kind: "VP8 " (lossy) and "VP8L" (lossless) hold the image and its
/// size alone; "VP8X" (extended) holds the canvas size and flags for what other chunks there are
/// (ICC, alpha, EXIF, XMP, animation). The whole RIFF must be in the file: one cut short is
/// refused, and bytes after it are left out when cleaning.
struct WebPChunks {
    struct Chunk {
        let code: UInt32
        /// From the code to the end of the pad byte.
        let range: Range<Int>
        let data: Range<Int>
    }

    let bytes: HeaderBytes
    let chunks: [Chunk]

    static let lossy = fourCC("VP8 ")
    static let lossless = fourCC("VP8L")
    static let extended = fourCC("VP8X")
    static let exif = fourCC("EXIF")
    static let xmp = fourCC("XMP ")
    /// VP8X's flags for an EXIF and an XMP chunk.
    static let exifFlag: UInt8 = 0x08
    static let xmpFlag: UInt8 = 0x04

    init(_ bytes: HeaderBytes) throws(PhotoError) {
        self.bytes = bytes
        let size = try bytes.uint32(4, littleEndian: true)
        guard size >= 4, bytes.has(size, at: 8) else { throw bytes.unreadable }
        let end = 8 + size
        var chunks: [Chunk] = []
        var position = 12
        while position < end {
            guard position + 8 <= end else { throw bytes.unreadable }
            let length = try bytes.uint32(position + 4, littleEndian: true)
            let dataEnd = position + 8 + length
            guard dataEnd <= end else { throw bytes.unreadable }
            // The pad byte; a last chunk of odd length without one is taken as it is.
            let chunkEnd = min(dataEnd + length % 2, end)
            chunks.append(Chunk(code: UInt32(try bytes.uint32(position)), range: position..<chunkEnd, data: position + 8..<dataEnd))
            position = chunkEnd
        }
        guard !chunks.isEmpty else { throw bytes.unreadable }
        self.chunks = chunks
    }

    func facts() throws(PhotoError) -> PhotoFacts {
        let first = chunks[0]
        let data = try bytes.view(first.data)
        let width: Int
        let height: Int
        switch first.code {
        case Self.lossy:
            // A key frame (bit 0 of the frame tag clear), its start code, then 14-bit sizes
            // whose top two bits are a scale the decoder does not apply to the size.
            guard try data.byte(0) & 1 == 0, data.matches([0x9D, 0x01, 0x2A], at: 3) else { throw bytes.unreadable }
            width = try data.uint16(6, littleEndian: true) & 0x3FFF
            height = try data.uint16(8, littleEndian: true) & 0x3FFF
        case Self.lossless:
            // The signature 0x2F, then width - 1 and height - 1 in 14 bits each, alpha, and a
            // version that must be 0.
            guard try data.byte(0) == 0x2F else { throw bytes.unreadable }
            let bits = try data.uint32(1, littleEndian: true)
            guard bits >> 29 == 0 else { throw bytes.unreadable }
            width = (bits & 0x3FFF) + 1
            height = ((bits >> 14) & 0x3FFF) + 1
        case Self.extended:
            // Flags, three reserved bytes, then canvas width - 1 and height - 1 in 24 bits each.
            width = try data.uint24(4, littleEndian: true) + 1
            height = try data.uint24(7, littleEndian: true) + 1
        default:
            throw bytes.unreadable
        }
        return PhotoFacts(format: .webp, width: width, height: height, orientation: try orientation())
    }

    func orientation() throws(PhotoError) -> Int? {
        guard let exif = chunks.first(where: { $0.code == Self.exif }) else { return nil }
        return ExifOrientation.read(try bytes.view(exif.data))
    }

    func cleanedParts() throws(PhotoError) -> [PhotoPart] {
        let isExtended = chunks[0].code == Self.extended
        guard !isExtended || chunks[0].data.count >= 10 else { throw bytes.unreadable }
        // An orientation comes back only where a reader looks for it: in an extended file.
        var orientation = isExtended ? try orientation().flatMap { $0 == 1 ? nil : $0 } : nil
        var body = PhotoParts()
        var size = 4  // "WEBP"
        for (index, chunk) in chunks.enumerated() {
            if chunk.code == Self.exif || chunk.code == Self.xmp {
                guard chunk.code == Self.exif, let kept = orientation else { continue }
                var minimal = [UInt8](ascii: "EXIF")
                let tiff = ExifOrientation.minimalTIFF(kept)
                minimal.append(littleEndian: UInt32(tiff.count))
                minimal += tiff  // 26 bytes: even, no pad
                body.add(minimal)
                size += minimal.count
                orientation = nil
            } else if index == 0 && isExtended {
                let flagsAt = chunk.data.lowerBound
                var flags = bytes.base[flagsAt] & ~Self.xmpFlag
                if orientation == nil { flags &= ~Self.exifFlag }
                body.keep(chunk.range.lowerBound..<flagsAt)
                body.add([flags])
                body.keep(flagsAt + 1..<chunk.range.upperBound)
                size += chunk.range.count
            } else {
                body.keep(chunk.range)
                size += chunk.range.count
            }
        }
        var header = [UInt8](ascii: "RIFF")
        header.append(littleEndian: UInt32(size))
        header += [UInt8](ascii: "WEBP")
        return [.bytes(header)] + body.parts
    }
}
