extension PNGChunks {
    /// Text that tools fill with authors, software, places and times; and the time itself.
    static let dropped: Set<UInt32> = [exif, fourCC("tEXt"), fourCC("zTXt"), fourCC("iTXt"), fourCC("tIME")]

    func cleanedParts() throws(PhotoError) -> [PhotoPart] {
        let chunks = try chunks()
        var orientation = try orientation(in: chunks).flatMap { $0 == 1 ? nil : $0 }
        var parts = PhotoParts()
        parts.keep(0..<Self.signature.count)
        for chunk in chunks {
            if chunk.type == Self.exif, let kept = orientation {
                parts.add(Self.chunk(Self.exif, data: ExifOrientation.minimalTIFF(kept)))
                orientation = nil
            } else if !Self.dropped.contains(chunk.type) {
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
