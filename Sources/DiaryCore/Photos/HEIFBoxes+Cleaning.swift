extension HEIFBoxes {
    /// The file with everything a reader does not need to draw the picture overwritten in
    /// place: same length, so every offset in `iloc` and every box size stays right.
    /// - Boxes of kinds not listed in `keptAtTop`, `keptInMeta`, `keptInProperties` and
    ///   `keptProperties`, and a second of a kind kept once, become `free` boxes of zeros:
    ///   Content Credentials (C2PA's `uuid` box), XML in `meta`, a user description (`udes`),
    ///   an image sequence's tracks (`moov`) and a motion photo's video among them.
    /// - Of the bytes in `mdat` and `idat`, a picture's stay (`pictureTypes`); an Exif item's
    ///   become an empty EXIF (no tags) and an XMP item's an empty XMP packet, padded with
    ///   zeros (XMP: spaces), as readers such as libheif hand these items to EXIF and XML
    ///   parsers, which fail on zeros alone (an item too short for them is zeroed); everything
    ///   else, items of other kinds and bytes no item names, becomes zeros.
    ///
    /// The rotation (`irot`) and the rest of the properties that draw the picture stay. Refused
    /// as unreadable rather than kept: an item whose bytes lie outside `mdat` and `idat`, a
    /// metadata item built from other items or sharing bytes with another item, and the limits
    /// of `items()`.
    func cleanedParts() throws(PhotoError) -> [PhotoPart] {
        var replaced = try freedBoxes() + itemBytes()
        replaced.sort { $0.range.lowerBound < $1.range.lowerBound }
        var parts = PhotoParts()
        var position = 0
        for (range, bytes) in replaced {
            guard range.lowerBound >= position else { throw self.bytes.unreadable }
            parts.keep(position..<range.lowerBound)
            parts.add(bytes)
            position = range.upperBound
        }
        parts.keep(position..<bytes.count)
        return parts.parts
    }

    typealias Replacement = (range: Range<Int>, bytes: [UInt8])

    /// The boxes a reader needs, where it looks for them; of those kept once (all but `mdat` and
    /// `ipma`), the first.
    static let keptAtTop: Set<UInt32> = Set(["ftyp", "meta", "mdat"].map(code))
    static let keptInMeta: Set<UInt32> = Set(["hdlr", "pitm", "iloc", "iinf", "iref", "iprp", "idat", "dinf", "grpl"].map(code))
    static let keptInProperties: Set<UInt32> = Set(["ipco", "ipma"].map(code))
    static let keptMoreThanOnce: Set<UInt32> = Set(["mdat", "ipma"].map(code))
    /// The item properties that draw the picture: its coding (`hvcC`), size (`ispe`), colours
    /// (`colr`: an ICC profile or coding points), bits a pixel (`pixi`), turn and mirror
    /// (`irot`, `imir`), crop (`clap`), place and layer (`rloc`, `lsel`), pixel aspect
    /// (`pasp`), what an auxiliary image is (`auxC`: alpha, depth, an HDR gain map), and HDR
    /// light levels (`clli`, `mdcv`, `cclv`, `amve`).
    static let keptProperties: Set<UInt32> = Set(
        ["hvcC", "ispe", "colr", "pixi", "irot", "imir", "clap", "rloc", "lsel", "pasp", "auxC", "clli", "mdcv", "cclv", "amve"].map(code))

    /// The boxes to overwrite as `free`: at the top, in `meta` and in `iprp`, where neighbours
    /// become one box; in `ipco` each property on its own, as `ipma` names them by their place.
    private func freedBoxes() throws(PhotoError) -> [Replacement] {
        var freed = freedRuns(top, keeping: Self.keptAtTop) + freedRuns(meta, keeping: Self.keptInMeta)
        guard let iprp = metaBox("iprp") else { return freed }
        let inProperties = try Self.children(of: iprp.payload, in: bytes)
        freed += freedRuns(inProperties, keeping: Self.keptInProperties)
        if let ipco = inProperties.first(where: { $0.type == Self.code("ipco") }) {
            for property in try Self.children(of: ipco.payload, in: bytes) where !Self.keptProperties.contains(property.type) {
                freed += freeBox(covering: property.range)
            }
        }
        return freed
    }

    /// The boxes of `boxes` not in `kept`, and those after the first of a kind kept once, each
    /// run of neighbours freed as one box: a file of a million small boxes costs a few parts.
    private func freedRuns(_ boxes: [Box], keeping kept: Set<UInt32>) -> [Replacement] {
        var seen: Set<UInt32> = []
        var freed: [Replacement] = []
        var run: Range<Int>?
        for box in boxes {
            if kept.contains(box.type) && (seen.insert(box.type).inserted || Self.keptMoreThanOnce.contains(box.type)) {
                if let range = run { freed += freeBox(covering: range) }
                run = nil
            } else {
                run = (run?.lowerBound ?? box.range.lowerBound)..<box.range.upperBound
            }
        }
        if let range = run { freed += freeBox(covering: range) }
        return freed
    }

    /// `range` (a box, or neighbouring boxes) as one `free` box of zeros; its header is left as
    /// it is when it already says so.
    private func freeBox(covering range: Range<Int>) -> [Replacement] {
        var header: [UInt8] = []
        if range.count <= Int(UInt32.max) {
            header.append(bigEndian: UInt32(range.count))
            header += [UInt8](ascii: "free")
        } else {  // a 64-bit size after the type
            header.append(bigEndian: 1)
            header += [UInt8](ascii: "free")
            header.append(bigEndian: UInt32(range.count >> 32))
            header.append(bigEndian: UInt32(range.count & 0xFFFF_FFFF))
        }
        let rest = range.lowerBound + header.count
        var freed: [Replacement] = bytes.matches(header, at: range.lowerBound) ? [] : [(range.lowerBound..<rest, header)]
        if rest < range.upperBound { freed.append(Self.zeros(rest..<range.upperBound)) }
        return freed
    }
}
