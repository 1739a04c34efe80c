/// A GIF's header (the logical screen: its size) and its blocks: extensions and images, each
/// ending in a chain of sub-blocks (a length byte, then that many bytes; a zero length ends it).
///
/// GIF is cleaned rather than kept as is because it has two places for what a person writes:
/// comment extensions, and application extensions, where XMP is carried.
enum GIFBlocks {
    static func facts(_ bytes: HeaderBytes) throws(PhotoError) -> PhotoFacts {
        // "GIF87a" or "GIF89a", then the logical screen: width and height (little-endian), flags,
        // background colour, aspect ratio.
        guard bytes.has(13, at: 0) else { throw bytes.unreadable }
        return PhotoFacts(format: .gif, width: try bytes.uint16(6, littleEndian: true), height: try bytes.uint16(8, littleEndian: true))
    }

    /// The application extensions that make an animation loop, and nothing else.
    static let looping: [[UInt8]] = [[UInt8](ascii: "NETSCAPE2.0"), [UInt8](ascii: "ANIMEXTS1.0")]

    static func cleanedParts(_ bytes: HeaderBytes) throws(PhotoError) -> [PhotoPart] {
        var parts = PhotoParts()
        let flags = try bytes.byte(10)
        var position = 13 + colourTableSize(flags)
        guard bytes.has(0, at: position) else { throw bytes.unreadable }
        parts.keep(0..<position)
        while position < bytes.count {
            switch try bytes.byte(position) {
            case 0x3B:  // trailer; whatever follows it is left out
                parts.keep(position..<position + 1)
                return parts.parts
            case 0x2C:  // an image: its descriptor, its colour table, the LZW code size, the data
                let imageFlags = try bytes.byte(position + 9)
                let end = try subBlocksEnd(bytes, from: position + 10 + colourTableSize(imageFlags) + 1)
                parts.keep(position..<end)
                position = end
            case 0x21:  // an extension: its label, then sub-blocks
                let label = try bytes.byte(position + 1)
                let end = try subBlocksEnd(bytes, from: position + 2)
                let isLooping = label == 0xFF && looping.contains { bytes.matches([0x0B] + $0, at: position + 2) }
                // Graphic control (timing, transparency) and plain text (drawn as part of the
                // image) stay; comments (FE), other applications' data (FF) and unknown ones go.
                if label == 0xF9 || label == 0x01 || isLooping { parts.keep(position..<end) }
                position = end
            default:
                throw bytes.unreadable
            }
        }
        // Many encoders leave out the trailer; a reader only needs it to end where it ends.
        parts.add([0x3B])
        return parts.parts
    }

    /// A colour table's size in bytes, from a descriptor's flags: 3 × 2^(n+1) when present.
    static func colourTableSize(_ flags: UInt8) -> Int {
        flags & 0x80 == 0 ? 0 : 3 << (Int(flags & 0x07) + 1)
    }

    /// Where the chain of sub-blocks starting at `start` ends (after its zero length).
    static func subBlocksEnd(_ bytes: HeaderBytes, from start: Int) throws(PhotoError) -> Int {
        var position = start
        while true {
            let length = Int(try bytes.byte(position))
            position += 1
            if length == 0 { return position }
            position += length
        }
    }
}
