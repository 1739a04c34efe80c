extension HEIFBoxes {
    /// The size of the primary item (the photo, not its thumbnail or tiles), from the `ispe`
    /// properties `ipma` gives it, the largest if it has several; without one, the largest
    /// `ispe` of all. Every `ispe` must be within the limits: a tile or hidden image claiming
    /// 100,000 pixels a side is a photo bomb too.
    ///
    /// Encoders round the coded size up (to blocks of 8 or 64 pixels) and say what is shown with
    /// a clean aperture (`clap`); the size reported is that shown one.
    func facts() throws(PhotoError) -> PhotoFacts {
        guard let propertiesBox = metaBox("iprp") else { throw bytes.unreadable }
        let iprp = try Self.children(of: propertiesBox.payload, in: bytes)
        guard let ipco = iprp.first(where: { $0.type == Self.code("ipco") }) else { throw bytes.unreadable }
        let properties = try Self.children(of: ipco.payload, in: bytes)

        var sizes: [Int: (width: Int, height: Int)] = [:]  // by property index, from 1
        for (index, property) in properties.enumerated() where property.type == Self.code("ispe") {
            let data = try bytes.view(property.fullPayload)
            let size = (width: try data.uint32(0), height: try data.uint32(4))
            try PhotoFacts.check(width: size.width, height: size.height, bytes.unreadable)
            sizes[index + 1] = size
        }
        let largest = { (candidates: [(width: Int, height: Int)]) in candidates.max { $0.width * $0.height < $1.width * $1.height } }

        let primary = try primaryAssociations(in: iprp, propertyCount: properties.count)
        guard var size = largest(primary.compactMap { sizes[$0] }) ?? largest(Array(sizes.values)) else { throw bytes.unreadable }
        if let aperture = primary.first(where: { properties[$0 - 1].type == Self.code("clap") }) {
            size = try cropped(size, to: properties[aperture - 1])
        }
        let rotation = primary.first { properties[$0 - 1].type == Self.code("irot") }
        var orientation: Int?
        if let rotation {
            // Quarter turns anticlockwise, as EXIF says them: none, 270°, 180°, 90° clockwise.
            let angle = Int(try bytes.view(properties[rotation - 1].payload).byte(0) & 0x03)
            orientation = [1, 8, 3, 6][angle]
        }
        return PhotoFacts(format: .heic, width: size.width, height: size.height, orientation: orientation)
    }

    /// The size a clean aperture shows: its width and height are fractions (numerator, then
    /// denominator, 32 bits each), rounded as libheif does, and no larger than what is coded.
    private func cropped(_ size: (width: Int, height: Int), to clap: Box) throws(PhotoError) -> (width: Int, height: Int) {
        let data = try bytes.view(clap.payload)
        func fraction(_ at: Int) throws(PhotoError) -> Int {
            let numerator = try data.uint32(at)
            let denominator = try data.uint32(at + 4)
            guard denominator > 0, numerator <= Int(Int32.max), denominator <= Int(Int32.max) else { throw bytes.unreadable }
            return (numerator + denominator / 2) / denominator
        }
        let cropped = (width: try fraction(0), height: try fraction(8))
        guard cropped.width <= size.width, cropped.height <= size.height else { throw bytes.unreadable }
        return cropped
    }

    /// The property indices (from 1) that `ipma` associates with the primary item (`pitm`); none
    /// when the file names no primary item.
    private func primaryAssociations(in iprp: [Box], propertyCount: Int) throws(PhotoError) -> [Int] {
        guard let pitm = metaBox("pitm") else { return [] }
        let data = try bytes.view(pitm.payload)
        let primary = try data.byte(0) == 0 ? try data.uint16(4) : try data.uint32(4)
        var associated: [Int] = []
        for ipma in iprp where ipma.type == Self.code("ipma") {
            let data = try bytes.view(ipma.payload)
            let version = try data.byte(0)
            let wideIndices = try data.uint24(1) & 1 == 1
            let entries = try data.uint32(4)
            var position = 8
            for _ in 0..<entries {  // each entry reads at least 3 bytes, so a false count soon throws
                let item = version < 1 ? try data.uint16(position) : try data.uint32(position)
                position += version < 1 ? 2 : 4
                let count = Int(try data.byte(position))
                position += 1
                for _ in 0..<count {
                    let index = wideIndices ? try data.uint16(position) & 0x7FFF : Int(try data.byte(position) & 0x7F)
                    position += wideIndices ? 2 : 1
                    guard index <= propertyCount else { throw bytes.unreadable }
                    if item == primary && index > 0 { associated.append(index) }
                }
            }
        }
        return associated
    }
}
