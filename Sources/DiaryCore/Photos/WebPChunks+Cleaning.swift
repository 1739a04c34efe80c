extension WebPChunks {
    static let xmp = fourCC("XMP ")
    /// VP8X's flags for an EXIF and an XMP chunk.
    static let exifFlag: UInt8 = 0x08
    static let xmpFlag: UInt8 = 0x04

    func cleanedParts() throws(PhotoError) -> [PhotoPart] {
        let isExtended = chunks[0].code == Self.extended
        guard !isExtended || chunks[0].data.count >= 10 else { throw bytes.unreadable }
        // An orientation comes back only where a reader looks for it: in an extended file.
        var orientation = isExtended ? try orientation().flatMap { $0 == 1 ? nil : $0 } : nil
        var body = PhotoParts()
        var size = 4  // "WEBP"
        for (index, chunk) in chunks.enumerated() {
            if chunk.code == Self.exif || chunk.code == Self.xmp {
                guard chunk.code == Self.exif, let kept = orientation else { continue }
                var minimal = [UInt8](ascii: "EXIF")
                let tiff = ExifOrientation.minimalTIFF(kept)
                minimal.append(littleEndian: UInt32(tiff.count))
                minimal += tiff  // 26 bytes: even, no pad
                body.add(minimal)
                size += minimal.count
                orientation = nil
            } else if index == 0 && isExtended {
                let flagsAt = chunk.data.lowerBound
                var flags = bytes.base[flagsAt] & ~Self.xmpFlag
                if orientation == nil { flags &= ~Self.exifFlag }
                body.keep(chunk.range.lowerBound..<flagsAt)
                body.add([flags])
                body.keep(flagsAt + 1..<chunk.range.upperBound)
                size += chunk.range.count
            } else {
                body.keep(chunk.range)
                size += chunk.range.count
            }
        }
        var header = [UInt8](ascii: "RIFF")
        header.append(littleEndian: UInt32(size))
        header += [UInt8](ascii: "WEBP")
        return [.bytes(header)] + body.parts
    }
}
