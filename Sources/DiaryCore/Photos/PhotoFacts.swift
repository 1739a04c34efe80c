import Foundation

/// What a photo's header says about it: its format and its size, read from the bytes without
/// decoding a pixel, so the server can refuse a file that is no photo, or a "photo bomb" (a few
/// kilobytes claiming 100,000 × 100,000 pixels, gigabytes once a browser decodes it), before
/// storing anything.
public struct PhotoFacts: Sendable, Hashable, Codable {
    public var format: PhotoFormat
    /// The size as stored in the file, in pixels.
    public var width: Int
    public var height: Int
    /// The EXIF orientation, 1 to 8, when the file has one (JPEG, PNG and WebP from EXIF; HEIC
    /// from its `irot` rotation, as 1, 3, 6 or 8). 5 to 8 mean the photo is shown turned a
    /// quarter, so its displayed size is `height × width`.
    public var orientation: Int?

    /// The size in pixels as the photo is displayed, after its orientation.
    public var displayedWidth: Int { turnsAQuarter ? height : width }
    public var displayedHeight: Int { turnsAQuarter ? width : height }

    /// The most pixels a photo may have on one side. Phones make 12–50 MP and up to 200 MP
    /// (16,320 × 12,240), medium-format cameras 100 MP (11,648 × 8,736), and a phone's panorama
    /// is long and thin; 20,000 takes all of these, and still refuses the 65,535-pixel sides a
    /// JPEG or GIF header can claim in a few bytes (a PNG's, 2 billion).
    public static let maximumSide = 20_000

    /// The most pixels a photo may have in all. A browser holds 4 bytes a pixel once decoded, so
    /// 150 million is 600 MB of memory for one photo: as much as a diary page should ever ask of
    /// a phone. It takes 48–108 MP phones and 100 MP medium-format cameras at full size; a 200 MP
    /// phone shot (199.8 million) is refused, and is added at the phone's usual 12–50 MP.
    public static let maximumPixels = 150_000_000

    /// The most frames an animation (GIF, animated PNG, animated WebP) may have. Its frames
    /// together may also have no more than `maximumPixels`, each counted at the size of the
    /// canvas it is drawn on (a browser composes every frame it shows as a whole canvas): one
    /// still photo's budget, spread over the animation. That is 150 frames of 1,000 × 1,000,
    /// 488 of 640 × 480, 72 of 1,920 × 1,080; a 1,000-frame 1,000 × 1,000 animation of a few
    /// megabytes, a billion pixels (4 GB) to decode each time it loops, is refused. The count
    /// bounds the cost of each frame that its size does not say (a million 1 × 1 frames fit in
    /// 20 MB): 10,000 frames is over a quarter of an hour at ten frames a second.
    public static let maximumFrames = 10_000

    public init(format: PhotoFormat, width: Int, height: Int, orientation: Int? = nil) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
    }

    /// The facts of a photo's bytes (a `Data`, mmapped or not, an array, or a raw buffer), read
    /// from its header; the bytes are borrowed, never copied.
    public init(of bytes: some ContiguousBytes) throws(PhotoError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(PhotoError) in try PhotoFacts.read(buffer) }
        }
        self = try result.get()
    }

    private var turnsAQuarter: Bool { (5...8).contains(orientation ?? 1) }

    static func read(_ buffer: UnsafeRawBufferPointer) throws(PhotoError) -> PhotoFacts {
        guard let format = PhotoFormat.sniffed(buffer) else { throw .notAPhoto }
        let bytes = HeaderBytes(base: buffer, format: format)
        let facts: PhotoFacts =
            switch format {
            case .jpeg: try JPEGSegments(bytes).facts()
            case .png: try PNGChunks(bytes).facts()
            case .gif: try GIFBlocks.facts(bytes)
            case .webp: try WebPChunks(bytes).facts()
            case .heic: try HEIFBoxes(bytes).facts()
            }
        try facts.checkSize(bytes.unreadable)
        return facts
    }

    /// Refuses a size of zero (no image) and one over the limits (a photo bomb).
    func checkSize(_ unreadable: PhotoError) throws(PhotoError) {
        try Self.check(width: width, height: height, unreadable)
    }

    static func check(width: Int, height: Int, _ unreadable: PhotoError) throws(PhotoError) {
        guard width > 0, height > 0 else { throw unreadable }
        guard width <= maximumSide, height <= maximumSide, width * height <= maximumPixels else {
            throw .tooManyPixels(width: width, height: height)
        }
    }

    /// Refuses an animation of more than `maximumFrames` frames, or whose frames, each counted at
    /// its canvas's `width × height`, have more than `maximumPixels` together. One frame is a
    /// still photo, checked by `check(width:height:_:)`.
    static func check(frames: Int, width: Int, height: Int) throws(PhotoError) {
        // The division keeps the product from overflowing, and is exact: frames × pixels ≤ the
        // budget just when pixels ≤ the budget ÷ frames, rounded down.
        guard frames <= 1 || (frames <= maximumFrames && width * height <= maximumPixels / frames) else {
            throw .tooManyFrames(count: frames, width: width, height: height)
        }
    }
}

extension PhotoFormat {
    /// The format whose signature the bytes start with, if any.
    static func sniffed(_ buffer: UnsafeRawBufferPointer) -> PhotoFormat? {
        let bytes = HeaderBytes(base: buffer, format: .jpeg)
        if bytes.matches([0xFF, 0xD8, 0xFF], at: 0) { return .jpeg }
        if bytes.matches(PNGChunks.signature, at: 0) { return .png }
        if bytes.matches([UInt8](ascii: "GIF87a"), at: 0) || bytes.matches([UInt8](ascii: "GIF89a"), at: 0) { return .gif }
        if bytes.matches([UInt8](ascii: "RIFF"), at: 0) && bytes.matches([UInt8](ascii: "WEBP"), at: 8) { return .webp }
        if HEIFBoxes.isHEIF(HeaderBytes(base: buffer, format: .heic)) { return .heic }
        return nil
    }
}
