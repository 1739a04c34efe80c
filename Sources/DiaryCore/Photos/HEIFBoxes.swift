/// A HEIC file's boxes (ISO BMFF, as in MP4): each a size, a four-character type and its data,
/// some holding boxes of their own. A HEIC starts with `ftyp` (its brands) and keeps what it says
/// about its images in the top-level `meta`: the items (`iinf`), where their bytes are (`iloc`),
/// and their properties (`iprp`: `ipco` holds them, `ipma` says which item has which), among
/// them the size (`ispe`) and rotation (`irot`).
///
/// Only the boxes on that path are opened, each by name, so nesting is never deeper than
/// `meta` → `iprp` → `ipco` → property and nothing recurses. Every box must end inside the one
/// that holds it, and the top-level boxes must fill the file exactly (a box of size 0 runs to
/// the end): a file cut short is refused.
struct HEIFBoxes {
    struct Box {
        let type: UInt32
        let range: Range<Int>
        let payload: Range<Int>
        /// Where a full box's data starts, after its version and flags.
        var fullPayload: Range<Int> { min(payload.lowerBound + 4, payload.upperBound)..<payload.upperBound }
    }

    let bytes: HeaderBytes
    /// The top-level boxes, in order.
    let top: [Box]
    /// The boxes inside the first top-level `meta`.
    let meta: [Box]

    /// The brands of HEVC-coded HEIF (heic, heix, heim, heis for images; hevc, hevx for
    /// sequences) and of HEIF in general (mif1, msf1), which iPhones also list.
    static let brands: Set<UInt32> = Set(["heic", "heix", "heim", "heis", "hevc", "hevx"].map(code)).union(generalBrands)
    static let generalBrands: Set<UInt32> = [fourCC("mif1"), fourCC("msf1")]
    /// AVIF is HEIF with AV1 inside: it lists mif1 too, but it is not HEIC.
    static let avifBrands: Set<UInt32> = [fourCC("avif"), fourCC("avis")]

    /// Whether the file starts with an `ftyp` box naming a HEIC brand.
    static func isHEIF(_ bytes: HeaderBytes) -> Bool {
        guard bytes.matches([UInt8](ascii: "ftyp"), at: 4), let size = try? bytes.uint32(0), size >= 16, size % 4 == 0,
            bytes.has(size, at: 0)
        else { return false }
        // The major brand, the minor version (skipped), then the compatible brands: files list a
        // handful, and no more than 64 are read.
        let offsets = [8] + Array(stride(from: 16, to: min(size, 16 + 64 * 4), by: 4))
        let named = Set(offsets.compactMap { try? UInt32(bytes.uint32($0)) })
        guard !named.isDisjoint(with: brands) else { return false }
        return named.isDisjoint(with: avifBrands) || !named.isDisjoint(with: brands.subtracting(generalBrands))
    }

    init(_ bytes: HeaderBytes) throws(PhotoError) {
        self.bytes = bytes
        let top = try Self.children(of: 0..<bytes.count, in: bytes)
        guard top.first?.type == Self.code("ftyp"), let meta = top.first(where: { $0.type == Self.code("meta") }) else {
            throw bytes.unreadable
        }
        self.top = top
        self.meta = try Self.children(of: meta.fullPayload, in: bytes)
    }

    static func code(_ name: String) -> UInt32 {
        name.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The boxes that fill `range` exactly.
    static func children(of range: Range<Int>, in bytes: HeaderBytes) throws(PhotoError) -> [Box] {
        var boxes: [Box] = []
        var position = range.lowerBound
        while position < range.upperBound {
            let box = try box(at: position, end: range.upperBound, in: bytes)
            boxes.append(box)
            position = box.range.upperBound
        }
        return boxes
    }

    /// The box at `position`, which must end by `end`: a 32-bit size, or 1 and a 64-bit size
    /// after the type, or 0 for "to the end"; a `uuid` box has 16 more bytes of header.
    static func box(at position: Int, end: Int, in bytes: HeaderBytes) throws(PhotoError) -> Box {
        guard position <= end - 8 else { throw bytes.unreadable }
        let smallSize = try bytes.uint32(position)
        let type = UInt32(try bytes.uint32(position + 4))
        var headerSize = 8
        let size: Int
        switch smallSize {
        case 0: size = end - position
        case 1:
            size = try bytes.offset(position + 8, size: 8)
            headerSize = 16
        default: size = smallSize
        }
        if type == code("uuid") { headerSize += 16 }
        guard size >= headerSize, size <= end - position else { throw bytes.unreadable }
        return Box(type: type, range: position..<position + size, payload: position + headerSize..<position + size)
    }

    func metaBox(_ name: String) -> Box? {
        meta.first { $0.type == Self.code(name) }
    }
}
