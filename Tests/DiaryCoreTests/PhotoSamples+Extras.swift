@testable import DiaryCore
import Foundation

/// What a file may carry beside its picture that no phone metadata list names: Content
/// Credentials (C2PA, in JUMBF boxes), chunks and segments of kinds no reader knows, and bytes
/// hidden where a format leaves room. Cleaning keeps what is known to draw the picture, so all
/// of these must go, each holding one of `secrets` to show it did.
extension PhotoSamples {
    /// A JUMBF superbox as C2PA writes it: a description box naming the "c2pa" store, then a
    /// manifest that says who made the photo and where.
    static let contentCredentials = box(
        "jumb",
        box("jumd", hex("6332706100110010800000aa00389b71") + [0x03] + Array("c2pa".utf8) + [0])
            + box("json", Array("{\"author\":\"Jane Doe\",\"where\":\"\(place)\"}".utf8)))

    // MARK: PNG

    /// The chunks a PNG may have to be drawn right, each of its one correct length: gamma,
    /// chromaticities, sRGB intent, coding-independent code points, mastering display and light
    /// levels (HDR), significant bits, pixel size, and transparency.
    static let pngDrawingChunks =
        pngChunk("gAMA", be32(45_455))
        + pngChunk("cHRM", [31_270, 32_900, 64_000, 33_000, 30_000, 60_000, 15_000, 6_000].flatMap { be32($0) })
        + pngChunk("sRGB", [0])
        + pngChunk("cICP", [1, 13, 0, 1])
        + pngChunk("mDCV", [UInt8](repeating: 0x11, count: 24))
        + pngChunk("cLLI", be32(10_000_000) + be32(4_000_000))
        + pngChunk("sBIT", [8, 8, 8])
        + pngChunk("pHYs", be32(2_835) + be32(2_835) + [1])
        + pngChunk("tRNS", be16(0) + be16(0) + be16(0))

    /// Chunks that do not draw the picture: Content Credentials (caBX), a private chunk of an
    /// unknown kind (zzZz), a suggested palette named by its maker (sPLT), a background colour
    /// (bKGD), a histogram (hIST), a gamma chunk with words after its number, and a digital
    /// signature (dSIG).
    static let pngOtherChunks =
        pngChunk("caBX", contentCredentials)
        + pngChunk("zzZz", Array("hidden in a chunk no one knows: \(place)".utf8))
        + pngChunk("sPLT", Array(maker.utf8) + [0, 8, 255, 0, 0, 255, 0, 1])
        + pngChunk("bKGD", be16(0) + be16(0) + be16(0))
        + pngChunk("gAMA", be32(45_455) + Array(serial.utf8))
        + pngChunk("dSIG", Array("signed by Jane Doe".utf8))

    // MARK: WebP

    /// WebP chunks that do not draw the picture: Content Credentials and a chunk of an unknown kind.
    static let webpOtherChunks = riffChunk("C2PA", contentCredentials) + riffChunk("zzZz", Array("hidden: \(place) \(serial)".utf8))

    // MARK: JPEG

    /// JPEG segments that do not draw the picture: Content Credentials in APP11 (JUMBF), APP9
    /// and APP15 of unknown makers, a JPEG extension marker (JPG1), a reserved marker (RES, 0x02),
    /// an APP14 that is not Adobe's, and a number-of-lines segment (DNL) carrying words.
    static let jpegOtherSegments =
        segment(0xEB, Array("JP".utf8) + [0x00, 0x01] + be32(1) + contentCredentials)
        + segment(0xE9, Array("a private comment".utf8))
        + segment(0xEF, Array("Jane Doe".utf8))
        + segment(0xF1, Array(maker.utf8))
        + segment(0x02, Array(serial.utf8))
        + segment(0xEE, Array("GPSLatitude".utf8))

    /// Adobe's APP14 with words after its twelve bytes.
    static let adobeWithWords = segment(0xEE, Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 1] + Array(place.utf8))

    // MARK: HEIC

    /// A HEIC that carries, beside its picture and nothing a reader needs to draw it: Content
    /// Credentials in a top-level `uuid` box (C2PA's), XMP in an `xml ` box of `meta`, a user
    /// description property (`udes`: a name and a place) associated with the photo, an item of a
    /// kind Diary does not know (`uri `), and bytes in `mdat` that no item names. Returns the
    /// file and where its image item's bytes are.
    static func heicWithExtras() -> (file: [UInt8], image: Range<Int>) {
        let image = Array("coded image data, kept byte for byte".utf8)
        let unnamed = Array("bytes no item names: \(place)".utf8)
        let uriItem = Array("an item of an unknown kind by \(maker)".utf8)
        let ftyp = box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1heic".utf8))
        let c2pa = box("uuid", hex("d8fec3d61b0e483c92975828877ec481") + contentCredentials)
        func meta(mdatData: Int) -> [UInt8] {
            let items = [(1, mdatData, image.count), (2, mdatData + image.count + unnamed.count, uriItem.count)]
            var iloc = [0x44, 0x00] + be16(UInt16(items.count))
            for (id, offset, length) in items {
                iloc += be16(UInt16(id)) + be16(0) + be16(1) + be32(UInt32(offset)) + be32(UInt32(length))
            }
            let iinf =
                be16(2)
                + fullBox("infe", version: 2, be16(1) + be16(0) + Array("hvc1".utf8) + [0])
                + fullBox("infe", version: 2, be16(2) + be16(0) + Array("uri ".utf8) + [0] + Array("urn:example:private".utf8) + [0])
            let ipco =
                box("hvcC", [1, 1, 0x60, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 0x5D, 0xF0, 0, 0xFC, 0xFD, 0xF8, 0xF8, 0, 0, 0x0F, 0])  // 1
                + fullBox("ispe", version: 0, be32(640) + be32(480))  // 2
                + fullBox("udes", version: 0, Array("en\0Jane Doe\0at home, \(place)\0\0".utf8))  // 3
                + box("irot", [0])  // 4
            let ipma = be32(1) + be16(1) + [4, 0x81, 0x02, 0x03, 0x04]
            return fullBox(
                "meta", version: 0,
                fullBox("hdlr", version: 0, be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
                    + fullBox("pitm", version: 0, be16(1))
                    + fullBox("iloc", version: 0, iloc)
                    + fullBox("iinf", version: 0, iinf)
                    + box("iprp", box("ipco", ipco) + fullBox("ipma", version: 0, ipma))
                    + box("xml ", [0, 0, 0, 0] + xmp))
        }
        let mdatData = ftyp.count + c2pa.count + meta(mdatData: 0).count + 8
        let file = ftyp + c2pa + meta(mdatData: mdatData) + box("mdat", image + unnamed + uriItem)
        return (file, mdatData..<mdatData + image.count)
    }
}
