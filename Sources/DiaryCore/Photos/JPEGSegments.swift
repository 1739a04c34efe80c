/// A JPEG's marker segments from its start (SOI) to its first scan (SOS): everything a JPEG says
/// about itself comes before its pixels, so nothing past the first SOS is read for its facts.
///
/// Fill bytes (extra 0xFF before a marker) are skipped and standalone markers (RSTn, TEM) have no
/// length; bytes that are no marker where one should be, an image's end before any frame, or a
/// segment running past the file make it unreadable. Every step moves forward at least one byte.
struct JPEGSegments {
    struct Segment {
        let marker: UInt8
        /// From the marker's 0xFF (the last one, after any fill bytes) to the segment's end.
        let range: Range<Int>
        /// The bytes after the length field.
        let payload: Range<Int>
    }

    let bytes: HeaderBytes
    /// The segments before the first scan, in order.
    let header: [Segment]
    /// Where the first SOS segment starts.
    let scanStart: Int

    init(_ bytes: HeaderBytes) throws(PhotoError) {
        guard bytes.matches([0xFF, 0xD8], at: 0) else { throw bytes.unreadable }
        self.bytes = bytes
        var header: [Segment] = []
        var position = 2
        while true {
            let segment = try Self.segment(bytes, at: position)
            if segment.marker == Self.startOfScan { break }
            guard segment.marker != 0xD8, segment.marker != Self.endOfImage else { throw bytes.unreadable }
            header.append(segment)
            position = segment.range.upperBound
        }
        self.header = header
        self.scanStart = position
    }

    static let startOfScan: UInt8 = 0xDA
    static let endOfImage: UInt8 = 0xD9

    /// The marker segment at `position`.
    static func segment(_ bytes: HeaderBytes, at position: Int) throws(PhotoError) -> Segment {
        guard try bytes.byte(position) == 0xFF else { throw bytes.unreadable }
        var markerAt = position + 1
        while try bytes.byte(markerAt) == 0xFF { markerAt += 1 }
        let marker = try bytes.byte(markerAt)
        switch marker {
        case 0x00:
            throw bytes.unreadable
        case 0x01, 0xD0...0xD9:  // TEM, RSTn, SOI, EOI: no length
            return Segment(marker: marker, range: markerAt - 1..<markerAt + 1, payload: markerAt + 1..<markerAt + 1)
        default:
            let length = try bytes.uint16(markerAt + 1)
            guard length >= 2, bytes.has(length, at: markerAt + 1) else { throw bytes.unreadable }
            return Segment(marker: marker, range: markerAt - 1..<markerAt + 1 + length, payload: markerAt + 3..<markerAt + 1 + length)
        }
    }

    /// SOF0 to SOF15, less DHT (C4), JPG (C8) and DAC (CC), which share the range.
    static func isFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    func facts() throws(PhotoError) -> PhotoFacts {
        guard let frame = header.first(where: { Self.isFrame($0.marker) }) else { throw bytes.unreadable }
        // Precision (1 byte), the number of lines and of samples a line, then 3 bytes for each
        // component. No lines (0) means a DNL segment after the first scan would give them:
        // refused like any size of zero.
        let data = try bytes.view(frame.payload)
        let components = Int(try data.byte(5))
        guard components > 0, data.count >= 6 + 3 * components else { throw bytes.unreadable }
        let height = try data.uint16(1)
        let width = try data.uint16(3)
        return PhotoFacts(format: .jpeg, width: width, height: height, orientation: try exifOrientation())
    }

    /// The orientation in the first EXIF APP1 segment, if any.
    func exifOrientation() throws(PhotoError) -> Int? {
        let exif = header.first { $0.marker == 0xE1 && bytes.matches(ExifOrientation.exifPrefix, at: $0.payload.lowerBound) }
        guard let exif else { return nil }
        return ExifOrientation.read(try bytes.view(exif.payload))
    }
}
