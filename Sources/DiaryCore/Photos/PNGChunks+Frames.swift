extension PNGChunks {
    static let animationControl = fourCC("acTL")
    static let frameControl = fourCC("fcTL")
    static let frameData = fourCC("fdAT")

    /// An animated PNG's frames: each fcTL's rectangle (width, height, then x and y offsets, 4
    /// bytes each, after its sequence number) must lie inside the canvas, as the APNG
    /// specification requires of a decoder, which then refuses the animation; and the frames,
    /// as many as acTL declares or as there are fcTLs, whichever is more, must hold
    /// `PhotoFacts.maximumFrames` and `maximumPixels` at the canvas's size, which every frame
    /// is composed on. An acTL or fcTL of the wrong length is damaged.
    func checkFrames(_ chunks: [Chunk], width: Int, height: Int) throws(PhotoError) {
        var declared = 0
        var frames = 0
        for chunk in chunks {
            switch chunk.type {
            case Self.animationControl:
                guard chunk.data.count == 8 else { throw bytes.unreadable }
                if declared == 0 { declared = try bytes.uint32(chunk.data.lowerBound) }
            case Self.frameControl:
                let data = try bytes.view(chunk.data)
                guard data.count == 26 else { throw bytes.unreadable }
                let frameWidth = try data.uint32(4)
                let frameHeight = try data.uint32(8)
                let x = try data.uint32(12)
                let y = try data.uint32(16)
                // Each at most 2^32 - 1, so no sum can overflow.
                guard frameWidth > 0, frameHeight > 0, x + frameWidth <= width, y + frameHeight <= height else { throw bytes.unreadable }
                frames += 1
            default:
                continue
            }
        }
        try PhotoFacts.check(frames: max(declared, frames), width: width, height: height)
    }
}
