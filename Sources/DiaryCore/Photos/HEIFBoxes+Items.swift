extension HEIFBoxes {
    /// What an item's bytes are, for cleaning.
    enum ItemKind {
        /// Coded pixels, or numbers that arrange other items' pixels: kept.
        case picture
        /// Metadata documents, replaced by empty ones: EXIF, and XMP (or any document a `mime`
        /// item holds).
        case exif, xmp
        /// Anything else (`uri ` items, codecs Diary does not know, items `iinf` does not
        /// name): zeroed.
        case other
    }

    /// The item types whose bytes draw the picture: HEVC images and tiles (`hvc1`, `hvt1`), and
    /// the images derived from others: a grid of tiles, an identity (rotated or cropped) view,
    /// an overlay and a tone map (an HDR gain map's, as iPhones write since iOS 18).
    static let pictureTypes: Set<UInt32> = Set(["hvc1", "hvt1", "grid", "iden", "iovl", "tmap"].map(code))

    struct Item {
        let kind: ItemKind
        /// Where its bytes are in the file, in order.
        let extents: [Range<Int>]
    }

    /// The items `iloc` places in this file: its extents counted from the file's start (method
    /// 0), each inside an `mdat`, or from `idat`'s (method 1); an extent of length 0 runs to
    /// that container's end. Items in another file (a data reference other than 0) and items
    /// built from other items (method 2) have no bytes of their own here; a metadata item
    /// built so cannot be overwritten, and is refused as unreadable, as is an extent outside
    /// its container.
    func items() throws(PhotoError) -> [Item] {
        let kinds = try itemKinds()
        guard let iloc = metaBox("iloc") else { return [] }
        let data = try bytes.view(iloc.payload)
        let version = try data.byte(0)
        guard version <= 2 else { throw bytes.unreadable }
        let offsetSize = Int(try data.byte(4) >> 4)
        let lengthSize = Int(try data.byte(4) & 0x0F)
        let baseOffsetSize = Int(try data.byte(5) >> 4)
        let indexSize = version == 0 ? 0 : Int(try data.byte(5) & 0x0F)
        for size in [offsetSize, lengthSize, baseOffsetSize, indexSize] where ![0, 4, 8].contains(size) {
            throw bytes.unreadable
        }
        let extentSize = indexSize + offsetSize + lengthSize
        let count = version < 2 ? try data.uint16(6) : try data.uint32(6)
        var position = version < 2 ? 8 : 10
        let mdats = top.filter { $0.type == Self.code("mdat") }.map(\.payload)
        var found: [Item] = []
        for _ in 0..<count {  // each item reads at least 6 bytes, so a false count soon throws
            let item = version < 2 ? try data.uint16(position) : try data.uint32(position)
            position += version < 2 ? 2 : 4
            var method = 0
            if version > 0 {
                method = try data.uint16(position) & 0x0F
                position += 2
            }
            let dataReference = try data.uint16(position)
            let base = try data.offset(position + 2, size: baseOffsetSize)
            let extentCount = try data.uint16(position + 2 + baseOffsetSize)
            position += 4 + baseOffsetSize
            guard data.has(extentSize * extentCount, at: position) else { throw bytes.unreadable }
            let kind = kinds[item] ?? .other
            if dataReference == 0 && (method < 2 || kind == .exif || kind == .xmp) {
                var extents: [Range<Int>] = []
                for extent in 0..<extentCount {
                    let at = position + extent * extentSize + indexSize
                    let offset = try data.offset(at, size: offsetSize)
                    let length = try data.offset(at + offsetSize, size: lengthSize)
                    extents.append(try fileRange(method: method, base: base, offset: offset, length: length, mdats: mdats))
                }
                found.append(Item(kind: kind, extents: extents))
            }
            position += extentSize * extentCount
        }
        return found
    }

    /// Where an extent's bytes are in the file: inside an `mdat` (method 0: `mdats` are their
    /// payloads, in file order) or `idat` (method 1).
    private func fileRange(method: Int, base: Int, offset: Int, length: Int, mdats: [Range<Int>]) throws(PhotoError) -> Range<Int> {
        let (relative, overflow) = base.addingReportingOverflow(offset)
        guard !overflow else { throw bytes.unreadable }
        let start: Int
        let container: Range<Int>
        switch method {
        case 0:
            // The first container not ending before the extent starts, found by halving.
            var low = 0
            var high = mdats.count
            while low < high {
                let middle = (low + high) / 2
                if mdats[middle].upperBound < relative { low = middle + 1 } else { high = middle }
            }
            guard low < mdats.count else { throw bytes.unreadable }
            (start, container) = (relative, mdats[low])
        case 1:
            guard let idat = metaBox("idat"), relative <= idat.payload.count else { throw bytes.unreadable }
            (start, container) = (idat.payload.lowerBound + relative, idat.payload)
        default:
            throw bytes.unreadable
        }
        guard start >= container.lowerBound, length <= container.upperBound - start else { throw bytes.unreadable }
        return start..<(length == 0 ? container.upperBound : start + length)
    }

    /// Each item's kind, from its `infe` entry's type. An `infe` before version 2 has no type:
    /// it can only describe a document, and is taken as XMP.
    private func itemKinds() throws(PhotoError) -> [Int: ItemKind] {
        guard let iinf = metaBox("iinf") else { throw bytes.unreadable }
        let countSize = try bytes.view(iinf.payload).byte(0) == 0 ? 2 : 4
        guard iinf.fullPayload.count >= countSize else { throw bytes.unreadable }
        let entries = try Self.children(of: iinf.fullPayload.lowerBound + countSize..<iinf.payload.upperBound, in: bytes)
        var kinds: [Int: ItemKind] = [:]
        for infe in entries where infe.type == Self.code("infe") {
            let data = try bytes.view(infe.payload)
            let version = try data.byte(0)
            if version < 2 {
                kinds[try data.uint16(4)] = .xmp
                continue
            }
            let item = version == 2 ? try data.uint16(4) : try data.uint32(4)
            let type = UInt32(try data.uint32(version == 2 ? 8 : 10))
            kinds[item] =
                switch type {
                case Self.code("Exif"): .exif
                case Self.code("mime"): .xmp
                case let type where Self.pictureTypes.contains(type): .picture
                default: .other
                }
        }
        return kinds
    }
}
