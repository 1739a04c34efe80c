/// A PNG's chunks: after the 8-byte signature, each is a length, a type, the data and a CRC.
/// The first must be IHDR (the size); eXIf (the orientation) counts only before the image data
/// (IDAT), where PNG puts it. The chunks are followed to IEND, so that an animated PNG's frames
/// (fcTL), which come between its image data, are all read. CRCs are not checked: nothing is
/// decoded.
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

    func chunk(at position: Int) throws(PhotoError) -> Chunk {
        let length = try bytes.uint32(position)
        guard length <= Int(Int32.max), bytes.has(length + 12, at: position) else { throw bytes.unreadable }
        return Chunk(type: UInt32(try bytes.uint32(position + 4)), range: position..<position + 12 + length)
    }

    /// The chunks from IHDR to IEND; unreadable if the file ends before IEND. Bytes after it are
    /// not read.
    func chunks() throws(PhotoError) -> [Chunk] {
        var chunks: [Chunk] = []
        var position = Self.signature.count
        while true {
            let chunk = try chunk(at: position)
            if chunks.isEmpty, chunk.type != Self.header || chunk.data.count != 13 { throw bytes.unreadable }
            chunks.append(chunk)
            if chunk.type == Self.end { return chunks }
            position = chunk.range.upperBound
        }
    }

    func facts() throws(PhotoError) -> PhotoFacts {
        let chunks = try chunks()
        let header = try bytes.view(chunks[0].data)
        let width = try header.uint32(0)
        let height = try header.uint32(4)
        // PNG limits both to 2^31 - 1; more is a damaged header, not a large photo. So is a bit
        // depth or colour type PNG does not have.
        guard width <= Int(Int32.max), height <= Int(Int32.max), [1, 2, 4, 8, 16].contains(try header.byte(8)),
            [0, 2, 3, 4, 6].contains(try header.byte(9))
        else { throw bytes.unreadable }
        try PhotoFacts.check(width: width, height: height, bytes.unreadable)
        try checkFrames(chunks, width: width, height: height)
        return PhotoFacts(format: .png, width: width, height: height, orientation: try orientation(in: chunks))
    }

    /// The orientation in the first eXIf before the image data, if any.
    func orientation(in chunks: [Chunk]) throws(PhotoError) -> Int? {
        guard let exif = chunks.prefix(while: { $0.type != Self.imageData }).first(where: { $0.type == Self.exif }) else { return nil }
        return ExifOrientation.read(try bytes.view(exif.data))
    }
}
