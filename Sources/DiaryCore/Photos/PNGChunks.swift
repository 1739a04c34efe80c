/// A PNG's chunks: after the 8-byte signature, each is a length, a type, the data and a CRC.
/// The first must be IHDR (the size); eXIf (the orientation) may only come before the image data
/// (IDAT), so facts read no chunk past the first IDAT. CRCs are not checked: nothing is decoded.
struct PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    struct Chunk {
        let type: UInt32
        /// From the length field to the end of the CRC.
        let range: Range<Int>
        var data: Range<Int> { range.lowerBound + 8..<range.upperBound - 4 }
    }

    let bytes: HeaderBytes

    init(_ bytes: HeaderBytes) {
        self.bytes = bytes
    }

    static let header = fourCC("IHDR")
    static let imageData = fourCC("IDAT")
    static let end = fourCC("IEND")
    static let exif = fourCC("eXIf")
    /// Text that tools fill with authors, software, places and times; and the time itself.
    static let dropped: Set<UInt32> = [exif, fourCC("tEXt"), fourCC("zTXt"), fourCC("iTXt"), fourCC("tIME")]

    func chunk(at position: Int) throws(PhotoError) -> Chunk {
        let length = try bytes.uint32(position)
        guard length <= Int(Int32.max), bytes.has(length + 12, at: position) else { throw bytes.unreadable }
        return Chunk(type: UInt32(try bytes.uint32(position + 4)), range: position..<position + 12 + length)
    }

    /// The chunks from the first up to and with the first of `last`'s type; unreadable if the
    /// file ends before it.
    func chunks(through last: Set<UInt32>) throws(PhotoError) -> [Chunk] {
        var chunks: [Chunk] = []
        var position = Self.signature.count
        while true {
            let chunk = try chunk(at: position)
            if chunks.isEmpty, chunk.type != Self.header || chunk.data.count != 13 { throw bytes.unreadable }
            chunks.append(chunk)
            if last.contains(chunk.type) { return chunks }
            position = chunk.range.upperBound
        }
    }

    func facts() throws(PhotoError) -> PhotoFacts {
        let chunks = try chunks(through: [Self.imageData, Self.end])
        let header = try bytes.view(chunks[0].data)
        let width = try header.uint32(0)
        let height = try header.uint32(4)
        // PNG limits both to 2^31 - 1; more is a damaged header, not a large photo. So is a bit
        // depth or colour type PNG does not have.
        guard width <= Int(Int32.max), height <= Int(Int32.max), [1, 2, 4, 8, 16].contains(try header.byte(8)),
            [0, 2, 3, 4, 6].contains(try header.byte(9))
        else { throw bytes.unreadable }
        return PhotoFacts(format: .png, width: width, height: height, orientation: try orientation(in: chunks))
    }

    func orientation(in chunks: [Chunk]) throws(PhotoError) -> Int? {
        guard let exif = chunks.first(where: { $0.type == Self.exif }) else { return nil }
        return ExifOrientation.read(try bytes.view(exif.data))
    }

    func cleanedParts() throws(PhotoError) -> [PhotoPart] {
        let chunks = try chunks(through: [Self.end])
        var orientation = try orientation(in: chunks).flatMap { $0 == 1 ? nil : $0 }
        var parts = PhotoParts()
        parts.keep(0..<Self.signature.count)
        for chunk in chunks {
            if chunk.type == Self.exif, let kept = orientation {
                parts.add(Self.chunk(Self.exif, data: ExifOrientation.minimalTIFF(kept)))
                orientation = nil
            } else if !Self.dropped.contains(chunk.type) {
                parts.keep(chunk.range)
            }
        }
        return parts.parts
    }

    /// A whole chunk: length, type, data and the CRC-32 of type and data.
    static func chunk(_ type: UInt32, data: [UInt8]) -> [UInt8] {
        var chunk: [UInt8] = []
        chunk.append(bigEndian: UInt32(data.count))
        chunk.append(bigEndian: type)
        chunk += data
        chunk.append(bigEndian: crc32(chunk[4...]))
        return chunk
    }

    /// CRC-32 as PNG defines it (ISO 3309, reflected, polynomial 0xEDB88320), bit by bit: it
    /// only ever covers a few dozen bytes.
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1
            }
        }
        return ~crc
    }
}
