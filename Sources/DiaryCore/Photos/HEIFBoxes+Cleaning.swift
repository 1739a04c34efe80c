extension HEIFBoxes {
    /// The file with the bytes of its Exif and `mime` (XMP) items overwritten in place: same
    /// length, so every offset in `iloc` and every box size stays right, and the rotation, in
    /// `irot`, is untouched. An Exif item becomes an empty EXIF (no tags) and an XMP item an
    /// empty XMP packet, each padded with zeros (XMP: spaces): readers such as libheif hand these
    /// items to EXIF and XML parsers, which fail on zeros alone. An item too short for them is
    /// zeroed.
    ///
    /// Limits, each refused as unreadable rather than kept: an item built from other items
    /// (`iloc` construction method 2), an extent of length 0 ("the rest of the file"), an
    /// extent outside the file or outside `idat`, metadata extents that overlap. Items in another
    /// file (a data reference other than 0) have nothing here to overwrite. Metadata outside
    /// `meta`'s items (an image sequence's `moov` tracks) is not looked for.
    func cleanedParts() throws(PhotoError) -> [PhotoPart] {
        var replaced: [(range: Range<Int>, bytes: ArraySlice<UInt8>)] = []
        for item in try metadataItemExtents() {
            let length = item.extents.reduce(0) { $0 + $1.count }
            let template = item.isExif ? Self.emptyExif : Self.emptyXMP
            let filler: UInt8 = item.isExif ? 0x00 : 0x20
            let payload =
                template.count <= length
                ? template + [UInt8](repeating: filler, count: length - template.count) : [UInt8](repeating: 0, count: length)
            var start = 0
            for extent in item.extents {
                replaced.append((extent, payload[start..<start + extent.count]))
                start += extent.count
            }
        }
        replaced.sort { $0.range.lowerBound < $1.range.lowerBound }
        var parts = PhotoParts()
        var position = 0
        for (range, bytes) in replaced {
            guard range.lowerBound >= position else { throw self.bytes.unreadable }
            parts.keep(position..<range.lowerBound)
            parts.add(Array(bytes))
            position = range.upperBound
        }
        parts.keep(position..<bytes.count)
        return parts.parts
    }

    /// An Exif item's payload with no tags: the offset to the TIFF header (0), then a big-endian
    /// TIFF header whose first directory has no entries and no next one.
    static let emptyExif: [UInt8] = [0, 0, 0, 0, 0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]
    static let emptyXMP = [UInt8](ascii: "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>")

    /// The metadata items, each with the ranges of the file its bytes are in, in order.
    private func metadataItemExtents() throws(PhotoError) -> [(isExif: Bool, extents: [Range<Int>])] {
        let items = try metadataItems()
        guard !items.isEmpty, let iloc = metaBox("iloc") else { return [] }
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
        var found: [(isExif: Bool, extents: [Range<Int>])] = []
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
            if let isExif = items[item], dataReference == 0 {
                var extents: [Range<Int>] = []
                for extent in 0..<extentCount {
                    let at = position + extent * extentSize + indexSize
                    let offset = try data.offset(at, size: offsetSize)
                    let length = try data.offset(at + offsetSize, size: lengthSize)
                    extents.append(try fileRange(method: method, base: base, offset: offset, length: length))
                }
                found.append((isExif, extents))
            }
            position += extentSize * extentCount
        }
        return found
    }

    /// Where an extent's bytes are in the file: counted from its start (method 0) or from the
    /// start of `idat`'s data (method 1).
    private func fileRange(method: Int, base: Int, offset: Int, length: Int) throws(PhotoError) -> Range<Int> {
        let container: Range<Int>
        switch method {
        case 0: container = 0..<bytes.count
        case 1:
            guard let idat = metaBox("idat") else { throw bytes.unreadable }
            container = idat.payload
        default: throw bytes.unreadable
        }
        let (relative, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, length > 0, relative <= container.count, length <= container.count - relative else { throw bytes.unreadable }
        let start = container.lowerBound + relative
        return start..<start + length
    }

    /// The ids of the items that are metadata: type `Exif` or `mime` (XMP, and any other
    /// document), and every item of an `infe` before version 2, which can only describe such
    /// documents.
    /// (Each id maps to whether it is Exif.)
    private func metadataItems() throws(PhotoError) -> [Int: Bool] {
        guard let iinf = metaBox("iinf") else { throw bytes.unreadable }
        let countSize = try bytes.view(iinf.payload).byte(0) == 0 ? 2 : 4
        guard iinf.fullPayload.count >= countSize else { throw bytes.unreadable }
        let entries = try Self.children(of: iinf.fullPayload.lowerBound + countSize..<iinf.payload.upperBound, in: bytes)
        var items: [Int: Bool] = [:]
        for infe in entries where infe.type == Self.code("infe") {
            let data = try bytes.view(infe.payload)
            let version = try data.byte(0)
            if version < 2 {
                items[try data.uint16(4)] = false
                continue
            }
            let item = version == 2 ? try data.uint16(4) : try data.uint32(4)
            let type = UInt32(try data.uint32(version == 2 ? 8 : 10))
            if type == Self.code("Exif") || type == Self.code("mime") { items[item] = type == Self.code("Exif") }
        }
        return items
    }
}
