/// A GIF's header (the logical screen: its size) and its blocks: extensions and images, each
/// ending in a chain of sub-blocks (a length byte, then that many bytes; a zero length ends it).
///
/// GIF is cleaned rather than kept as is because it has two places for what a person writes:
/// comment extensions, and application extensions, where XMP is carried.
enum GIFBlocks {
    enum Block {
        /// An image (a frame): its descriptor, colour table, LZW code size and data.
        case image(Range<Int>)
        case `extension`(label: UInt8, Range<Int>)
        /// The trailer's one byte, where the GIF ends.
        case trailer(Int)
    }

    /// The logical screen's size, and every frame's: a frame must lie inside the limits wherever
    /// it reaches. Browsers do not clip a first frame larger than the screen, or placed past it,
    /// but enlarge the screen to hold it (Chromium to the union of the two, Firefox to the
    /// frame's size), and decoders allocate a frame's own size: a 10 × 10 screen with a 60,000 ×
    /// 60,000 frame is the classic GIF bomb. So the size checked is the screen enlarged to hold
    /// every frame, and each frame counts at that size toward `PhotoFacts.maximumFrames` and
    /// `maximumPixels`. The size reported stays the screen's, as GIF says it.
    static func facts(_ bytes: HeaderBytes) throws(PhotoError) -> PhotoFacts {
        // "GIF87a" or "GIF89a", then the logical screen: width and height (little-endian), flags,
        // background colour, aspect ratio.
        guard bytes.has(13, at: 0) else { throw bytes.unreadable }
        let width = try bytes.uint16(6, littleEndian: true)
        let height = try bytes.uint16(8, littleEndian: true)
        var reach = (width: width, height: height)
        var frames = 0
        try forEachBlock(bytes) { (block: Block) throws(PhotoError) in
            guard case .image(let range) = block else { return }
            // The descriptor: left, top, width, height, each two bytes.
            let left = try bytes.uint16(range.lowerBound + 1, littleEndian: true)
            let top = try bytes.uint16(range.lowerBound + 3, littleEndian: true)
            reach.width = max(reach.width, left + (try bytes.uint16(range.lowerBound + 5, littleEndian: true)))
            reach.height = max(reach.height, top + (try bytes.uint16(range.lowerBound + 7, littleEndian: true)))
            frames += 1
        }
        try PhotoFacts.check(width: reach.width, height: reach.height, bytes.unreadable)
        try PhotoFacts.check(frames: frames, width: reach.width, height: reach.height)
        return PhotoFacts(format: .gif, width: width, height: height)
    }

    /// The application extensions that make an animation loop, and nothing else.
    static let looping: [[UInt8]] = [[UInt8](ascii: "NETSCAPE2.0"), [UInt8](ascii: "ANIMEXTS1.0")]

    static func cleanedParts(_ bytes: HeaderBytes) throws(PhotoError) -> [PhotoPart] {
        var parts = PhotoParts()
        parts.keep(0..<(try blocksStart(bytes)))
        var ended = false
        try forEachBlock(bytes) { (block: Block) throws(PhotoError) in
            switch block {
            case .trailer(let position):
                parts.keep(position..<position + 1)
                ended = true
            case .image(let range):
                parts.keep(range)
            case .extension(let label, let range):
                let isLooping = label == 0xFF && looping.contains { bytes.matches([0x0B] + $0, at: range.lowerBound + 2) }
                // Graphic control (timing, transparency) and plain text (drawn as part of the
                // image) stay; comments (FE), other applications' data (FF) and unknown ones go.
                if label == 0xF9 || label == 0x01 || isLooping { parts.keep(range) }
            }
        }
        // Many encoders leave out the trailer; a reader only needs it to end where it ends.
        if !ended { parts.add([0x3B]) }
        return parts.parts
    }

    /// Where the blocks start: after the header and its global colour table.
    static func blocksStart(_ bytes: HeaderBytes) throws(PhotoError) -> Int {
        let start = 13 + colourTableSize(try bytes.byte(10))
        guard bytes.has(0, at: start) else { throw bytes.unreadable }
        return start
    }

    /// Calls `body` with each block in order, up to the trailer or the end of the bytes; a
    /// block cut short, or a byte that starts none, is unreadable. Every block moves forward.
    static func forEachBlock(_ bytes: HeaderBytes, _ body: (Block) throws(PhotoError) -> Void) throws(PhotoError) {
        var position = try blocksStart(bytes)
        while position < bytes.count {
            switch try bytes.byte(position) {
            case 0x3B:
                try body(.trailer(position))
                return
            case 0x2C:  // the descriptor (10 bytes), its colour table, the LZW code size, the data
                let flags = try bytes.byte(position + 9)
                let end = try subBlocksEnd(bytes, from: position + 10 + colourTableSize(flags) + 1)
                try body(.image(position..<end))
                position = end
            case 0x21:  // an extension: its label, then sub-blocks
                let end = try subBlocksEnd(bytes, from: position + 2)
                try body(.extension(label: try bytes.byte(position + 1), position..<end))
                position = end
            default:
                throw bytes.unreadable
            }
        }
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
