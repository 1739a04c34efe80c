extension JPEGSegments {
    /// The JPEG with only the segments that draw it (see `kept(_:)`), from the start to the end
    /// of its image (EOI).
    func cleanedParts() throws(PhotoError) -> [PhotoPart] {
        guard header.contains(where: { Self.isFrame($0.marker) }) else { throw bytes.unreadable }
        var parts = PhotoParts()
        parts.keep(0..<2)
        // The minimal EXIF goes after SOI and any JFIF APP0, where both standards want theirs.
        var orientation = try exifOrientation().flatMap { $0 == 1 ? nil : $0 }
        for segment in header {
            if let kept = orientation, segment.marker != 0xE0 {
                parts.add(Self.minimalExif(kept))
                orientation = nil
            }
            keep(segment, in: &parts)
        }
        keepScans(in: &parts)
        return parts.parts
    }

    private enum Kept {
        case whole, none
        case rewritten([UInt8])
    }

    private func keep(_ segment: Segment, in parts: inout PhotoParts) {
        switch kept(segment) {
        case .whole: parts.keep(segment.range)
        case .none: break
        case .rewritten(let bytes): parts.add(bytes)
        }
    }

    /// What a cleaned JPEG keeps of a segment. Those that draw the picture stay: the frame
    /// (SOF0–SOF15), the tables (DQT, DHT, DAC: Huffman and arithmetic coding), the restart
    /// interval (DRI), the scans (SOS) and restart markers; of the APPn, JFIF (APP0, without its
    /// thumbnail), the ICC profile (APP2, the colours) and Adobe's colour transform (APP14, which
    /// says whether the components are RGB or YCbCr), each with its fields alone. Everything else
    /// goes: EXIF (APP1, whose orientation comes back alone), XMP, IPTC, Content Credentials
    /// (APP11, JUMBF), every other APPn, comments, the JPEG extensions (JPGn), reserved markers,
    /// and the markers of hierarchical coding (DHP, EXP) and DNL, which browsers do not decode.
    private func kept(_ segment: Segment) -> Kept {
        let payload = segment.payload
        switch segment.marker {
        case 0xDB, 0xC4, 0xCC, 0xDD, Self.startOfScan, 0xD0...0xD7:
            return .whole
        case let marker where Self.isFrame(marker):
            return .whole
        case 0xE0:
            // JFIF; its optional thumbnail is dropped (it can show what was cropped away), as is
            // any other APP0 (JFXX: a thumbnail again).
            guard bytes.matches([UInt8](ascii: "JFIF\0"), at: payload.lowerBound), payload.count >= 14 else { return .none }
            if payload.count == 14 { return .whole }
            let fields = payload.lowerBound..<payload.lowerBound + 12
            return .rewritten([0xFF, 0xE0, 0x00, 0x10] + bytes.base[fields] + [0x00, 0x00])
        case 0xE2:
            // ICC_PROFILE: the colours. Not MPF (the index of appended images) or FlashPix.
            return bytes.matches([UInt8](ascii: "ICC_PROFILE\0"), at: payload.lowerBound) ? .whole : .none
        case 0xEE:
            // "Adobe", its version, two flags and the transform: twelve bytes.
            guard bytes.matches([UInt8](ascii: "Adobe"), at: payload.lowerBound), payload.count >= 12 else { return .none }
            if payload.count == 12 { return .whole }
            return .rewritten([0xFF, 0xEE, 0x00, 0x0E] + bytes.base[payload.lowerBound..<payload.lowerBound + 12])
        default:
            return .none
        }
    }

    /// From the first SOS to EOI: the entropy-coded data as is, the tables between scans of a
    /// progressive JPEG as is, metadata segments between them left out like those before.
    /// Whatever follows EOI is left out; a file that ends before EOI, or whose markers between
    /// scans cannot be followed, is kept as is to its end (browsers show what is there).
    private func keepScans(in parts: inout PhotoParts) {
        var runStart = scanStart
        var position = scanStart
        while let segment = try? Self.segment(bytes, at: position) {
            if segment.marker == Self.endOfImage {
                parts.keep(runStart..<segment.range.upperBound)
                return
            }
            let kept = kept(segment)
            if case .whole = kept {
            } else {
                parts.keep(runStart..<segment.range.lowerBound)
                if case .rewritten(let bytes) = kept { parts.add(bytes) }
                runStart = segment.range.upperBound
            }
            position = segment.range.upperBound
            if segment.marker == Self.startOfScan || (0xD0...0xD7).contains(segment.marker) {
                guard let next = nextMarker(from: position) else { break }
                position = next
            }
        }
        parts.keep(runStart..<bytes.count)
    }

    /// The next marker in entropy-coded data: 0xFF followed by neither 0x00 (a stuffed 0xFF),
    /// a restart marker (which belongs to the data) nor another 0xFF (fill).
    private func nextMarker(from start: Int) -> Int? {
        var index = start
        let base = bytes.base
        while index + 1 < base.count {
            guard base[index] == 0xFF else {
                index += 1
                continue
            }
            let next = base[index + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) {
                index += 2
            } else if next == 0xFF {
                index += 1
            } else {
                return index
            }
        }
        return nil
    }

    /// An APP1 EXIF segment holding only the orientation.
    static func minimalExif(_ orientation: Int) -> [UInt8] {
        let payload = ExifOrientation.exifPrefix + ExifOrientation.minimalTIFF(orientation)
        return [0xFF, 0xE1, 0x00, UInt8(payload.count + 2)] + payload
    }
}
