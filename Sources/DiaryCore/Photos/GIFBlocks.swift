/// A GIF's header (the logical screen: its size) and its blocks: extensions and images, each
/// ending in a chain of sub-blocks (a length byte, then that many bytes; a zero length ends it).
///
/// GIF is cleaned rather than kept as is because it has places for what a person writes:
/// comment and plain text extensions, and application extensions, where XMP is carried.
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

    /// The header and the images as they are; of the extensions, graphic control (timing,
    /// transparency) and looping, each rewritten to its fields alone. Comments, plain text (which
    /// no browser draws), other applications' data and unknown extensions go, and so does
    /// whatever follows the trailer.
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
                if let kept = try kept(label: label, at: range.lowerBound, bytes) { parts.add(kept) }
            }
        }
        // Many encoders leave out the trailer; a reader only needs it to end where it ends.
        if !ended { parts.add([0x3B]) }
        return parts.parts
    }

    /// An extension as it is kept, from its fields alone (sub-blocks after them could carry
    /// anything), or nil when it goes.
    private static func kept(label: UInt8, at position: Int, _ bytes: HeaderBytes) throws(PhotoError) -> [UInt8]? {
        switch label {
        case 0xF9:
            // Graphic control: one sub-block of 4 bytes (flags, delay, transparent colour).
            guard try bytes.byte(position + 2) >= 4 else { return nil }
            return [0x21, 0xF9, 0x04] + bytes.base[position + 3..<position + 7] + [0x00]
        case 0xFF:
            // Looping: the application's name (11 bytes), then a sub-block of 3 bytes, 1 and
            // the number of loops.
            guard looping.contains(where: { bytes.matches([0x0B] + $0, at: position + 2) }), try bytes.byte(position + 14) >= 3,
                try bytes.byte(position + 15) == 1
            else { return nil }
            return Array(bytes.base[position..<position + 14]) + [0x03, 0x01] + bytes.base[position + 16..<position + 18] + [0x00]
        default:
            return nil
        }
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
