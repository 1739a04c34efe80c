extension WebPChunks {
    static let animation = fourCC("ANIM")
    static let frame = fourCC("ANMF")
    static let alpha = fourCC("ALPH")

    /// An extended WebP's images, each inside the canvas as libwebp's demuxer requires (it
    /// refuses the whole file otherwise, so one that does not is damaged): a still image's
    /// bitstream, and each animation frame (ANMF) with the bitstream it holds, at the frame's
    /// offset. The canvas is within the limits, so every frame is; and the frames, each counted
    /// at the canvas's size as a browser composes them, must hold `PhotoFacts.maximumFrames`
    /// and `maximumPixels` together.
    func checkImages(inCanvas canvas: (width: Int, height: Int)) throws(PhotoError) {
        func inside(_ x: Int, _ y: Int, _ size: (width: Int, height: Int)) -> Bool {
            x + size.width <= canvas.width && y + size.height <= canvas.height
        }
        var frames = 0
        for chunk in chunks {
            switch chunk.code {
            case Self.lossy, Self.lossless:
                guard inside(0, 0, try imageSize(chunk)) else { throw bytes.unreadable }
            case Self.frame:
                // Half the x and y offsets, then width - 1 and height - 1, 24 bits each; then
                // the duration and flags, and the frame's own chunks.
                let data = try bytes.view(chunk.data)
                let x = 2 * (try data.uint24(0, littleEndian: true))
                let y = 2 * (try data.uint24(3, littleEndian: true))
                let size = (width: try data.uint24(6, littleEndian: true) + 1, height: try data.uint24(9, littleEndian: true) + 1)
                guard inside(x, y, size) else { throw bytes.unreadable }
                for image in try frameChunks(chunk) where image.code == Self.lossy || image.code == Self.lossless {
                    guard inside(x, y, try imageSize(image)) else { throw bytes.unreadable }
                }
                frames += 1
            default:
                continue
            }
        }
        try PhotoFacts.check(frames: frames, width: canvas.width, height: canvas.height)
    }

    /// The chunks of an animation frame, after its 16 bytes of fields.
    func frameChunks(_ frame: Chunk) throws(PhotoError) -> [Chunk] {
        guard frame.data.count >= 16 else { throw bytes.unreadable }
        return try Self.chunks(in: frame.data.lowerBound + 16..<frame.data.upperBound, of: bytes)
    }
}
