extension PNGChunks {
    /// The chunks a cleaned PNG keeps, each with the data lengths PNG allows it (a known chunk
    /// with bytes past its fields could carry anything, and is left out as a reader would
    /// ignore it). They are what draws the picture, and nothing a person writes:
    /// - IHDR, PLTE, IDAT, IEND: the image itself;
    /// - tRNS: transparency;
    /// - gAMA, cHRM, sRGB, iCCP, cICP: its colours (browsers use all five; iCCP is an ICC
    ///   profile, which colour-managed photos need to look as they were taken);
    /// - mDCV, cLLI: the display an HDR image was mastered on and its light levels, which tone
    ///   mapping reads;
    /// - sBIT: the significant bits of each sample, which a decoder may scale by;
    /// - pHYs: the pixels' aspect ratio and density, which viewers size the image by;
    /// - acTL, fcTL, fdAT: an animated PNG's frames.
    ///
    /// Everything else goes: text (tEXt, zTXt, iTXt), time (tIME), EXIF (eXIf, whose orientation
    /// comes back alone), Content Credentials (caBX), signatures (dSIG), suggested palettes named
    /// by their makers (sPLT), background colours and histograms (bKGD, hIST), which no browser
    /// draws, and every chunk of a kind not listed, public or private.
    static let kept: [UInt32: ClosedRange<Int>] = [
        header: 13...13, fourCC("PLTE"): 3...768, imageData: 0...Int.max, end: 0...0,
        fourCC("tRNS"): 1...256,
        fourCC("gAMA"): 4...4, fourCC("cHRM"): 32...32, fourCC("sRGB"): 1...1, fourCC("iCCP"): 3...Int.max, fourCC("cICP"): 4...4,
        fourCC("mDCV"): 24...24, fourCC("cLLI"): 8...8,
        fourCC("sBIT"): 1...4, fourCC("pHYs"): 9...9,
        animationControl: 8...8, frameControl: 26...26, frameData: 4...Int.max,
    ]

    /// IEND with no data, for a file whose IEND had some.
    static let emptyEnd: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// The PNG with only the chunks in `kept`, and an eXIf of its orientation alone where it had
    /// one other than 1. Bytes after IEND go.
    func cleanedParts() throws(PhotoError) -> [PhotoPart] {
        let chunks = try chunks()
        var orientation = try orientation(in: chunks).flatMap { $0 == 1 ? nil : $0 }
        var parts = PhotoParts()
        parts.keep(0..<Self.signature.count)
        for chunk in chunks {
            if chunk.type == Self.exif, let kept = orientation {
                parts.add(Self.chunk(Self.exif, data: ExifOrientation.minimalTIFF(kept)))
                orientation = nil
            } else if chunk.type == Self.end {
                if chunk.data.isEmpty { parts.keep(chunk.range) } else { parts.add(Self.emptyEnd) }
            } else if Self.kept[chunk.type]?.contains(chunk.data.count) == true {
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
