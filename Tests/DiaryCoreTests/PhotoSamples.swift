@testable import DiaryCore
import Foundation

/// Small photos built byte by byte, each carrying the metadata a phone puts in (GPS, the
/// camera's serial, XMP, comments), for the photo tests. Their image data is real where a test
/// reads it (a 1 × 1 JPEG scan, a 1 × 1 lossless WebP), taken from Pillow's encoder; the rest is
/// the formats' structure, written out here so each test can say exactly what must survive.
enum PhotoSamples {
    // MARK: What a photo may tell about its taker

    static let maker = "CameraMaker-Secret"
    static let serial = "SN-4815162342"
    static let place = "Seoul, 37.5665 N"

    /// Words that must not be anywhere in a cleaned photo.
    static let secrets = [maker, serial, place, "GPSLatitude", "Jane Doe", "rdf:Description", "Photoshop 3.0", "a private comment"]

    /// A big-endian TIFF (the body of EXIF) with IFD0 holding a maker, the orientation and a
    /// serial, and a GPS directory with a latitude.
    static func exif(orientation: UInt16 = 6) -> [UInt8] {
        let ifd0: [(tag: UInt16, type: UInt16, count: UInt32, data: [UInt8])] = [
            (0x010F, 2, UInt32(maker.utf8.count + 1), Array(maker.utf8) + [0]),
            (0x0112, 3, 1, be16(orientation) + [0, 0]),
            (0x8825, 4, 1, []),  // GPS directory's offset, filled below
            (0xA431, 2, UInt32(serial.utf8.count + 1), Array(serial.utf8) + [0]),
        ]
        let gps: [(tag: UInt16, type: UInt16, count: UInt32, data: [UInt8])] = [
            (0x0001, 2, 2, [0x4E, 0, 0, 0]),  // GPSLatitudeRef "N"
            (0x0002, 5, 3, be32(37) + be32(1) + be32(33) + be32(1) + be32(59) + be32(1)),  // GPSLatitude
            (0x001B, 7, UInt32(place.utf8.count), Array(place.utf8)),  // GPSProcessingMethod, of a sort
        ]
        let gpsOffset = 8 + 2 + 12 * ifd0.count + 4
        let dataOffset = gpsOffset + 2 + 12 * gps.count + 4
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + be32(8)
        var data: [UInt8] = []
        for directory in [ifd0, gps] {
            tiff += be16(UInt16(directory.count))
            for entry in directory {
                tiff += be16(entry.tag) + be16(entry.type) + be32(entry.count)
                if entry.tag == 0x8825 {
                    tiff += be32(UInt32(gpsOffset))
                } else if entry.data.count <= 4 {
                    tiff += entry.data + [UInt8](repeating: 0, count: 4 - entry.data.count)
                } else {
                    tiff += be32(UInt32(dataOffset + data.count))
                    data += entry.data + (entry.data.count % 2 == 1 ? [0] : [])
                }
            }
            tiff += be32(0)
        }
        return tiff + data
    }

    static let xmp = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:Description GPSLatitude="37,33.99N" creator="Jane Doe"/></x:xmpmeta>"#.utf8)

    /// The 26-byte TIFF that a cleaned photo keeps: the orientation alone.
    static func minimalExif(_ orientation: UInt8) -> [UInt8] {
        [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]
    }

    // MARK: JPEG

    static let jfif = segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
    static let iccProfile = segment(0xE2, Array("ICC_PROFILE".utf8) + [0, 1, 1] + Array("a colour profile".utf8))
    static let adobe = segment(0xEE, Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 1])

    /// From DQT to EOI of a 1 × 1 grey baseline JPEG (Pillow, quality 50, optimized tables):
    /// DQT, SOF0 (1 × 1), two DHT, SOS, one byte of scan, EOI.
    static let jpegImage = hex(
        "ffdb004300100b0c0e0c0a100e0d0e1211101318281a181616183123251d283a333d3c3933383740485c4e404457453738506d51575f626768673e4d71797064785c656763"
            + "ffc0000b080001000101011100"
            + "ffc40014000100000000000000000000000000000000ffc40014100100000000000000000000000000000000"
            + "ffda0008010100003f003fffd9")

    /// A 1 × 1 JPEG as a phone leaves it: JFIF, EXIF with GPS, XMP, IPTC, an ICC profile, Adobe's
    /// colour segment, a comment, then the image, then an appended image's worth of bytes.
    static func jpeg(orientation: UInt16 = 6, height: UInt16 = 1, width: UInt16 = 1) -> [UInt8] {
        var image = jpegImage
        image.replaceSubrange(74..<78, with: be16(height) + be16(width))  // in SOF0, after the precision
        return [0xFF, 0xD8] + jfif
            + segment(0xE1, Array("Exif".utf8) + [0, 0] + exif(orientation: orientation))
            + segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + xmp)
            + [0xFF, 0xFF, 0xFF]  // fill bytes before a marker
            + segment(0xED, Array("Photoshop 3.0".utf8) + [0] + Array("8BIM\u{04}\u{04}\(place)".utf8))
            + iccProfile + adobe
            + segment(0xFE, Array("a private comment".utf8))
            + image
            + [0xFF, 0xD8, 0xFF, 0xE1] + Array("trailing image with \(maker)".utf8)
    }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(UInt16(payload.count + 2)) + payload
    }

    // MARK: PNG

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A 1 × 1 RGB PNG with an ICC profile, EXIF, text, international text, compressed text and
    /// a modification time, and bytes after its end.
    static func png(width: UInt32 = 1, height: UInt32 = 1) -> [UInt8] {
        pngSignature
            + pngHeader(width: width, height: height)
            + pngChunk("iCCP", Array("sRGB".utf8) + [0, 0] + zlibStored(Array("a colour profile".utf8)))
            + pngChunk("eXIf", exif())
            + pngChunk("tEXt", Array("Author".utf8) + [0] + Array("Jane Doe".utf8))
            + pngChunk("zTXt", Array("Comment".utf8) + [0, 0] + zlibStored(Array("a private comment".utf8)))
            + pngChunk("iTXt", Array("Location".utf8) + [0, 0, 0, 0, 0] + Array(place.utf8))
            + pngChunk("tIME", [0x07, 0xEA, 11, 26, 12, 0, 0])
            + pngImage + pngEnd
            + Array("after the end: \(place)".utf8)
    }

    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        pngChunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
    }

    static let pngImage = pngChunk("IDAT", zlibStored([0, 200, 30, 40]))  // filter 0, one red pixel
    static let pngEnd = pngChunk("IEND", [])

    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        be32(UInt32(data.count)) + Array(type.utf8) + data + be32(crc32(Array(type.utf8) + data))
    }

    /// A zlib stream of one stored (uncompressed) block.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        let length = UInt16(data.count)
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)] + data + be32(b << 16 | a)
    }

    /// CRC-32 written again here, so the tests do not take the code's word for it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 0 ? 0 : 0xEDB8_8320) }
        }
        return crc ^ 0xFFFF_FFFF
    }

    // MARK: WebP

    /// A 1 × 1 lossless image (Pillow's encoder): the VP8L chunk's data.
    static let webpLossless = hex("2f0000000007508f2217a5ff8188e87f00")

    /// An extended WebP: VP8X (ICC, EXIF and XMP flags), ICCP, the image, EXIF, XMP.
    static func webp(orientation: UInt16 = 6, canvasWidth: UInt32 = 1, canvasHeight: UInt32 = 1) -> [UInt8] {
        let vp8x = [0x2C, 0, 0, 0] + le24(canvasWidth - 1) + le24(canvasHeight - 1)
        return riff(
            riffChunk("VP8X", vp8x) + riffChunk("ICCP", Array("a colour profile".utf8))
                + riffChunk("VP8L", webpLossless) + riffChunk("EXIF", exif(orientation: orientation)) + riffChunk("XMP ", xmp))
            + Array("after the end: \(place)".utf8)
    }

    static func riff(_ chunks: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + le32(UInt32(chunks.count + 4)) + Array("WEBP".utf8) + chunks
    }

    static func riffChunk(_ code: String, _ data: [UInt8]) -> [UInt8] {
        Array(code.utf8) + le32(UInt32(data.count)) + data + (data.count % 2 == 1 ? [0] : [])
    }

    /// A lossy (VP8) key frame's first ten bytes: frame tag, start code, 14-bit sizes.
    static func webpLossy(width: UInt16, height: UInt16) -> [UInt8] {
        riff(riffChunk("VP8 ", [0x90, 0x01, 0x00, 0x9D, 0x01, 0x2A] + le16(width) + le16(height) + [0, 0]))
    }

    // MARK: GIF

    static let gifImage: [UInt8] =
        [0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00]  // graphic control
        + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00]  // a 1 × 1 image, LZW
    static let gifLooping: [UInt8] = [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]

    static func gifHeader(width: UInt16 = 1, height: UInt16 = 1) -> [UInt8] {
        Array("GIF89a".utf8) + le16(width) + le16(height) + [0x80, 0, 0] + [0xFF, 0xFF, 0xFF, 0, 0, 0]
    }

    /// A 1 × 1 GIF with a comment, XMP in an application extension, the looping extension, and
    /// bytes after its trailer.
    static func gif(width: UInt16 = 1, height: UInt16 = 1) -> [UInt8] {
        gifHeader(width: width, height: height)
            + [0x21, 0xFE] + subBlocks(Array("a private comment".utf8))
            + [0x21, 0xFF, 0x0B] + Array("XMP DataXMP".utf8) + subBlocks(xmp)
            + gifLooping + gifImage + [0x3B]
            + Array("after the end: \(place)".utf8)
    }

    static func subBlocks(_ data: [UInt8]) -> [UInt8] {
        var blocks: [UInt8] = []
        var rest = data[...]
        while !rest.isEmpty {
            let block = rest.prefix(255)
            blocks += [UInt8(block.count)] + block
            rest = rest.dropFirst(block.count)
        }
        return blocks + [0]
    }

    // MARK: HEIC

    /// A HEIC's boxes around a stand-in for its coded image: item 1 the photo (a thumbnail's
    /// `ispe` listed first, the photo's own associated with it, turned by `irot`), item 2 its
    /// EXIF, item 3 its XMP, all three in `mdat`. Returns the file and where the EXIF and XMP
    /// payloads are in it.
    static func heic(width: UInt32 = 4032, height: UInt32 = 3024, rotation: UInt8 = 3) -> (file: [UInt8], exif: Range<Int>, xmp: Range<Int>) {
        let image = Array("coded image data, kept byte for byte".utf8)
        let exifPayload = be32(0) + exif(orientation: 1)
        let ftyp = box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1heic".utf8))
        func meta(mdatData: Int) -> [UInt8] {
            let items = [
                (1, mdatData, image.count), (2, mdatData + image.count, exifPayload.count),
                (3, mdatData + image.count + exifPayload.count, xmp.count),
            ]
            var iloc = [0x44, 0x00] + be16(UInt16(items.count))  // offsets and lengths of 4 bytes, no base
            for (id, offset, length) in items {
                iloc += be16(UInt16(id)) + be16(0) + be16(1) + be32(UInt32(offset)) + be32(UInt32(length))
            }
            let iinf =
                be16(3)
                + fullBox("infe", version: 2, be16(1) + be16(0) + Array("hvc1".utf8) + [0])
                + fullBox("infe", version: 2, be16(2) + be16(0) + Array("Exif".utf8) + [0])
                + fullBox("infe", version: 2, be16(3) + be16(0) + Array("mime".utf8) + [0] + Array("application/rdf+xml".utf8) + [0])
            let ipco =
                fullBox("ispe", version: 0, be32(320) + be32(240))  // 1: the thumbnail's size
                + fullBox("ispe", version: 0, be32(width) + be32(height))  // 2: the photo's
                + box("irot", [rotation])  // 3
            let ipma = be32(1) + be16(1) + [2, 0x82, 0x03]
            return fullBox(
                "meta", version: 0,
                fullBox("hdlr", version: 0, be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
                    + fullBox("pitm", version: 0, be16(1))
                    + fullBox("iloc", version: 0, iloc)
                    + fullBox("iinf", version: 0, iinf)
                    + box("iprp", box("ipco", ipco) + fullBox("ipma", version: 0, ipma)))
        }
        let mdatData = ftyp.count + meta(mdatData: 0).count + 8
        let file = ftyp + meta(mdatData: mdatData) + box("mdat", image + exifPayload + xmp)
        let exifStart = mdatData + image.count
        return (file, exifStart..<exifStart + exifPayload.count, exifStart + exifPayload.count..<exifStart + exifPayload.count + xmp.count)
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(payload.count + 8)) + Array(type.utf8) + payload
    }

    static func fullBox(_ type: String, version: UInt8, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, 0, 0, 0] + payload)
    }

    /// A HEIC that pillow-heif 1.8.1 (libheif) wrote from a 16 × 8 image with EXIF (GPS, maker
    /// "CameraMaker", serial "SERIAL12345", orientation 6) and XMP: coded at 64 × 64, shown
    /// through a clean aperture of 16 × 8.
    static let realHEIC = Array(
        Data(
            base64Encoded: """
                AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAgdtZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAAAEZpbG9jAAAAAERAAAMAAQAAAAACKwABAAAAAAAA\
                ADMAAgAAAAACXgABAAAAAAAAAMYAAwAAAAADJAABAAAAAAAAAG0AAABiaWluZgAAAAAAAwAAABVpbmZlAgAAAAABAABodmMxAAAAABVpbmZlAgAAAQACAABFeGlmAAAAACppbmZlAgAA\
                AQADAABtaW1lAGFwcGxpY2F0aW9uL3JkZit4bWwAAAAAAA5waXRtAAAAAAABAAAA/GlwcnAAAADcaXBjbwAAAHVodmNDAQNwAAAAkAAAAAAAHvAA/P34+AAADwNgAAEAGEABDAH//wNw\
                AAADAJAAAAMAAAMAHroCQGEAAQApQgEBA3AAAAMAkAAAAwAAAwAeoCCBBZbqrprm4CGgwIAAAAyAAAADAIRiAAEABkQBwXPBiQAAABNjb2xybmNseAABAA0ABoAAAAAUaXNwZQAAAAAA\
                AABAAAAAQAAAAChjbGFwAAAAEAAAAAEAAAAIAAAAAf///9AAAAAC////yAAAAAIAAAAQcGl4aQAAAAADCAgIAAAAGGlwbWEAAAAAAAAAAQABBYECAwWEAAAAKGlyZWYAAAAAAAAADmNk\
                c2MAAgABAAEAAAAOY2RzYwADAAEAAQAAAW5tZGF0AAAALygBrxMhZGNA9Sci//9o8p/6Khn/bPZYWdyugMFb8vrA9mSbwPOqkZ6Ah2mnMBV4AAAABkV4aWYAAE1NACoAAAAIAAQBDwAC\
                AAAADAAAAD4BEgADAAAAAQAGAACIJQAEAAAAAQAAAEqkMQACAAAADAAAALAAAAAAQ2FtZXJhTWFrZXIAAAQAAQACAAAAAk4AAAAAAgAFAAAAAwAAAIAAAwACAAAAAkUAAAAABAAFAAAA\
                AwAAAJgAAAAAAAAAJQAAAAEAAAAhAAAAAQAAADsAAAABAAAAfgAAAAEAAAA6AAAAAQAAACgAAAABU0VSSUFMMTIzNDUAPHg6eG1wbWV0YSB4bWxuczp4PSJhZG9iZTpuczptZXRhLyI+\
                PHJkZjpSREY+PHJkZjpEZXNjcmlwdGlvbiBHUFNMYXRpdHVkZT0iMzcsMzMuOTlOIi8+PC9yZGY6UkRGPjwveDp4bXBtZXRhPg==
                """)!)

    // MARK: Bytes

    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le24(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }
    static func le32(_ value: UInt32) -> [UInt8] { le24(value) + [UInt8(value >> 24)] }

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var high: UInt8?
        for digit in text.utf8 {
            guard let value = Hex.value(of: digit) else { continue }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }

    /// Whether `needle` occurs anywhere in `bytes`.
    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
