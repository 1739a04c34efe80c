extension HEIFBoxes {
    /// What becomes of the bytes in `mdat` and `idat`: a picture's stay, a metadata item's
    /// become an empty document, and the rest (items of other kinds, bytes no item names)
    /// becomes zeros. A metadata item sharing bytes with another item is unreadable.
    func itemBytes() throws(PhotoError) -> [Replacement] {
        var replaced: [Replacement] = []
        var covered: [(range: Range<Int>, isPicture: Bool)] = []
        for item in try items() {
            switch item.kind {
            case .picture:
                covered += item.extents.map { ($0, true) }
            case .exif, .xmp:
                replaced += Self.emptied(item)
                covered += item.extents.map { ($0, false) }
            case .other:
                continue
            }
        }
        covered.removeAll { $0.range.isEmpty }
        covered.sort { $0.range.lowerBound < $1.range.lowerBound }
        // Pictures may share bytes; a metadata item may share none.
        var reach = 0
        var metadataReach = 0
        for (range, isPicture) in covered {
            guard range.lowerBound >= (isPicture ? metadataReach : reach) else { throw bytes.unreadable }
            reach = max(reach, range.upperBound)
            if !isPicture { metadataReach = range.upperBound }
        }
        // Every covered range lies in one container, and the containers do not overlap: one
        // pass over both, in order, finds the bytes between.
        var containers = top.filter { $0.type == Self.code("mdat") }.map(\.payload)
        if let idat = metaBox("idat") { containers.append(idat.payload) }
        containers.sort { $0.lowerBound < $1.lowerBound }
        var next = 0
        for container in containers {
            var position = container.lowerBound
            while next < covered.count, covered[next].range.lowerBound < container.upperBound {
                let range = covered[next].range
                if range.lowerBound > position { replaced.append(Self.zeros(position..<range.lowerBound)) }
                position = max(position, range.upperBound)
                next += 1
            }
            if position < container.upperBound { replaced.append(Self.zeros(position..<container.upperBound)) }
        }
        return replaced
    }

    static func zeros(_ range: Range<Int>) -> Replacement {
        (range, [UInt8](repeating: 0, count: range.count))
    }

    /// A metadata item's extents filled with an empty EXIF or XMP, padded to their length.
    private static func emptied(_ item: Item) -> [Replacement] {
        let length = item.extents.reduce(0) { $0 + $1.count }
        let template = item.kind == .exif ? emptyExif : emptyXMP
        let filler: UInt8 = item.kind == .exif ? 0x00 : 0x20
        let payload =
            template.count <= length
            ? template + [UInt8](repeating: filler, count: length - template.count) : [UInt8](repeating: 0, count: length)
        var start = 0
        return item.extents.map { extent in
            defer { start += extent.count }
            return (extent, Array(payload[start..<start + extent.count]))
        }
    }

    /// An Exif item's payload with no tags: the offset to the TIFF header (0), then a big-endian
    /// TIFF header whose first directory has no entries and no next one.
    static let emptyExif: [UInt8] = [0, 0, 0, 0, 0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]
    static let emptyXMP = [UInt8](ascii: "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>")
}
