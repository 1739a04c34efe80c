/// A WebP file: a RIFF container ("RIFF", a size, "WEBP") of chunks, each a four-character code,
/// a little-endian size, the data and a pad byte to an even length.
///
/// The first chunk says the kind: "VP8 " (lossy) and "VP8L" (lossless) hold the image and its
/// size alone; "VP8X" (extended) holds the canvas size and flags for what other chunks there are
/// (ICC, alpha, EXIF, XMP, animation), and an animation's frames are ANMF chunks, each holding
/// chunks of its own. The whole RIFF must be in the file: one cut short is refused, and bytes
/// after it are left out when cleaning.
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

    init(_ bytes: HeaderBytes) throws(PhotoError) {
        self.bytes = bytes
        let size = try bytes.uint32(4, littleEndian: true)
        guard size >= 4, bytes.has(size, at: 8) else { throw bytes.unreadable }
        let chunks = try Self.chunks(in: 12..<8 + size, of: bytes)
        guard !chunks.isEmpty else { throw bytes.unreadable }
        self.chunks = chunks
    }

    /// The chunks that fill `range`: the RIFF's, or an animation frame's.
    static func chunks(in range: Range<Int>, of bytes: HeaderBytes) throws(PhotoError) -> [Chunk] {
        var chunks: [Chunk] = []
        var position = range.lowerBound
        while position < range.upperBound {
            guard position + 8 <= range.upperBound else { throw bytes.unreadable }
            let length = try bytes.uint32(position + 4, littleEndian: true)
            let dataEnd = position + 8 + length
            guard dataEnd <= range.upperBound else { throw bytes.unreadable }
            // The pad byte; a last chunk of odd length without one is taken as it is.
            let chunkEnd = min(dataEnd + length % 2, range.upperBound)
            chunks.append(Chunk(code: UInt32(try bytes.uint32(position)), range: position..<chunkEnd, data: position + 8..<dataEnd))
            position = chunkEnd
        }
        return chunks
    }

    func facts() throws(PhotoError) -> PhotoFacts {
        let first = chunks[0]
        let size: (width: Int, height: Int)
        switch first.code {
        case Self.lossy, Self.lossless:
            size = try imageSize(first)
        case Self.extended:
            // Flags, three reserved bytes, then canvas width - 1 and height - 1 in 24 bits each.
            let data = try bytes.view(first.data)
            size = (try data.uint24(4, littleEndian: true) + 1, try data.uint24(7, littleEndian: true) + 1)
            try PhotoFacts.check(width: size.width, height: size.height, bytes.unreadable)
            try checkImages(inCanvas: size)
        default:
            throw bytes.unreadable
        }
        return PhotoFacts(format: .webp, width: size.width, height: size.height, orientation: try orientation())
    }

    /// The size a lossy (VP8) or lossless (VP8L) bitstream says its image has.
    func imageSize(_ chunk: Chunk) throws(PhotoError) -> (width: Int, height: Int) {
        let data = try bytes.view(chunk.data)
        if chunk.code == Self.lossy {
            // A key frame (bit 0 of the frame tag clear), its start code, then 14-bit sizes
            // whose top two bits are a scale the decoder does not apply to the size.
            guard try data.byte(0) & 1 == 0, data.matches([0x9D, 0x01, 0x2A], at: 3) else { throw bytes.unreadable }
            return (try data.uint16(6, littleEndian: true) & 0x3FFF, try data.uint16(8, littleEndian: true) & 0x3FFF)
        }
        // The signature 0x2F, then width - 1 and height - 1 in 14 bits each, alpha, and a
        // version that must be 0.
        guard try data.byte(0) == 0x2F else { throw bytes.unreadable }
        let bits = try data.uint32(1, littleEndian: true)
        guard bits >> 29 == 0 else { throw bytes.unreadable }
        return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    }

    func orientation() throws(PhotoError) -> Int? {
        guard let exif = chunks.first(where: { $0.code == Self.exif }) else { return nil }
        return ExifOrientation.read(try bytes.view(exif.data))
    }
}
