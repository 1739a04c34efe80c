extension WebPChunks {
    /// The chunks a cleaned WebP keeps as they are: the image (VP8, VP8L), its alpha (ALPH), its
    /// colour profile (ICCP) and an animation's background colour and loops (ANIM). VP8X is
    /// written anew with the flags of what is kept, each animation frame (ANMF) with its fields
    /// and the chunks above alone, and EXIF with the orientation alone. Everything else goes:
    /// XMP, Content Credentials (C2PA), and every chunk of a kind not listed, at the top or in a
    /// frame.
    static let kept: Set<UInt32> = [lossy, lossless, alpha, fourCC("ICCP"), animation]
    static let keptInFrames: Set<UInt32> = [lossy, lossless, alpha]

    /// VP8X's flags: ICC, alpha, EXIF, XMP, animation; the other three bits are reserved.
    static let iccFlag: UInt8 = 0x20
    static let alphaFlag: UInt8 = 0x10
    static let exifFlag: UInt8 = 0x08
    static let animationFlag: UInt8 = 0x02

    func cleanedParts() throws(PhotoError) -> [PhotoPart] {
        let isExtended = chunks[0].code == Self.extended
        guard !isExtended || chunks[0].data.count >= 10 else { throw bytes.unreadable }
        // An orientation comes back only where a reader looks for it: in an extended file.
        var orientation = isExtended ? try orientation().flatMap { $0 == 1 ? nil : $0 } : nil
        var body = PhotoParts()
        for (index, chunk) in chunks.enumerated() {
            switch chunk.code {
            case Self.extended where index == 0:
                body.add(extendedHeader(chunk, withExif: orientation != nil))
            case Self.exif:
                guard let kept = orientation else { continue }
                let tiff = ExifOrientation.minimalTIFF(kept)
                var minimal = [UInt8](ascii: "EXIF")
                minimal.append(littleEndian: UInt32(tiff.count))
                body.add(minimal + tiff)  // 26 bytes: even, no pad
                orientation = nil
            case Self.frame:
                try keep(frame: chunk, in: &body)
            case let code where Self.kept.contains(code):
                body.keep(chunk.range)
            default:
                continue
            }
        }
        var header = [UInt8](ascii: "RIFF")
        header.append(littleEndian: UInt32(body.parts.reduce(4) { $0 + $1.count }))  // 4: "WEBP"
        header += [UInt8](ascii: "WEBP")
        return [.bytes(header)] + body.parts
    }

    /// VP8X of ten bytes: the flags of what is kept (an EXIF chunk only `withExif`, no XMP, no
    /// reserved bits), three zero bytes, and the canvas size as it was.
    private func extendedHeader(_ chunk: Chunk, withExif: Bool) -> [UInt8] {
        let flags = bytes.base[chunk.data.lowerBound] & (Self.iccFlag | Self.alphaFlag | Self.animationFlag) | (withExif ? Self.exifFlag : 0)
        var header = [UInt8](ascii: "VP8X")
        header.append(littleEndian: 10)
        return header + [flags, 0, 0, 0] + bytes.base[chunk.data.lowerBound + 4..<chunk.data.lowerBound + 10]
    }

    /// An animation frame with its 16 bytes of fields and its alpha and image chunks alone.
    private func keep(frame: Chunk, in body: inout PhotoParts) throws(PhotoError) {
        let kept = try frameChunks(frame).filter { Self.keptInFrames.contains($0.code) }
        let size = kept.reduce(16) { $0 + $1.range.count }
        var header = [UInt8](ascii: "ANMF")
        header.append(littleEndian: UInt32(size))
        body.add(header)
        body.keep(frame.data.lowerBound..<frame.data.lowerBound + 16)
        for chunk in kept { body.keep(chunk.range) }
        // A last chunk of odd length may have come without its pad byte.
        if size % 2 == 1 { body.add([0]) }
    }
}
