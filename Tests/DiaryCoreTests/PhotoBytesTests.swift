@testable import DiaryCore
import Foundation
import Testing

@Suite("Photo bytes")
struct PhotoBytesTests {
    typealias S = PhotoSamples

    func facts(_ bytes: [UInt8]) throws -> PhotoFacts { try PhotoFacts(of: bytes) }

    func expectClean(_ cleaned: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in S.secrets {
            #expect(!S.contains(cleaned, Array(secret.utf8)), "\(secret) is still in the photo", sourceLocation: sourceLocation)
        }
        // The GPS directory's pointer (tag 0x8825, type LONG) is gone with the EXIF that held it.
        #expect(!S.contains(cleaned, [0x88, 0x25, 0x00, 0x04]), sourceLocation: sourceLocation)
    }

    // MARK: Formats

    @Test("Each format has the media type and file extension a browser and a file manager expect")
    func formatNames() throws {
        #expect(PhotoFormat.allCases.map(\.mediaType) == ["image/jpeg", "image/png", "image/webp", "image/gif", "image/heic"])
        #expect(PhotoFormat.allCases.map(\.fileExtension) == ["jpg", "png", "webp", "gif", "heic"])
        #expect(String(decoding: try JSONEncoder().encode(PhotoFormat.webp), as: UTF8.self) == #""webp""#)
    }

    @Test("Errors say what to do in words a writer understands")
    func messages() {
        #expect(PhotoError.notAPhoto.description == "Diary keeps JPEG, PNG, WebP, GIF and HEIC photos; this file is none of them.")
        #expect(PhotoError.unreadableHeader(.heic).description.contains("HEIC photo cannot be read"))
        #expect(PhotoError.tooManyPixels(width: 100_000, height: 100_000).description.contains("million pixels in all"))
    }

    // MARK: JPEG

    @Test("A JPEG's size and orientation come from its header; orientation 6 shows it turned a quarter")
    func jpegFacts() throws {
        let photo = try facts(S.jpeg())
        #expect(photo == PhotoFacts(format: .jpeg, width: 1, height: 1, orientation: 6))
        let turned = try facts(S.jpeg(orientation: 8, height: 3, width: 4))
        #expect((turned.width, turned.height, turned.orientation) == (4, 3, 8))
        #expect((turned.displayedWidth, turned.displayedHeight) == (3, 4))
    }

    @Test("A cleaned JPEG keeps JFIF, the ICC profile, Adobe's segment and the image; its EXIF is the orientation alone")
    func jpegCleaned() throws {
        let original = S.jpeg()
        let cleaned = try PhotoMetadata.cleaned(original, format: .jpeg)
        let minimalExif = [0xFF, 0xE1, 0x00, 0x22] + Array("Exif".utf8) + [0, 0] + S.minimalExif(6)
        #expect(cleaned == [0xFF, 0xD8] + S.jfif + minimalExif + S.iccProfile + S.adobe + S.jpegImage)
        expectClean(cleaned)
        #expect(try facts(cleaned) == facts(original))
        #expect(try PhotoMetadata.cleaned(cleaned, format: .jpeg) == cleaned)

        // The tables and the scan, to EOI, are one range of the original: streamed, never copied.
        let parts = try PhotoMetadata.cleanedParts(of: Data(original), format: .jpeg)
        let scan = try #require(original.indices.first { original[$0] == 0xFF && original[$0 + 1] == 0xDA })
        let tables = scan + 13 - S.jpegImage.count
        #expect(parts.last == .original(tables..<scan + 13))
    }

    @Test("A JPEG whose orientation is upright keeps no EXIF at all")
    func jpegUpright() throws {
        let cleaned = try PhotoMetadata.cleaned(S.jpeg(orientation: 1), format: .jpeg)
        #expect(cleaned == [0xFF, 0xD8] + S.jfif + S.iccProfile + S.adobe + S.jpegImage)
    }

    @Test("A JPEG's thumbnails go: JFIF's own is cut out, JFXX and the MPF index of appended images are left out")
    func jpegThumbnails() throws {
        let jfifFields = Array("JFIF".utf8) + [0, 1, 2, 1, 0, 72, 0, 72]
        let withThumbnail = S.segment(0xE0, jfifFields + [1, 1, 0xAB, 0xCD, 0xEF])  // a 1 × 1 thumbnail
        let jfxx = S.segment(0xE0, Array("JFXX".utf8) + [0, 0x13] + [UInt8](repeating: 0x55, count: 20))
        let mpf = S.segment(0xE2, Array("MPF".utf8) + [0] + Array("MM\0*".utf8) + [0, 0, 0, 8])
        let cleaned = try PhotoMetadata.cleaned([0xFF, 0xD8] + withThumbnail + jfxx + mpf + S.jpegImage, format: .jpeg)
        #expect(cleaned == [0xFF, 0xD8] + S.segment(0xE0, jfifFields + [0, 0]) + S.jpegImage)
    }

    @Test("Between the scans of a progressive JPEG, tables stay and comments go; restart markers and stuffed bytes are data")
    func jpegBetweenScans() throws {
        let sos = S.hex("ffda0008010100003f00")
        let scanData: [UInt8] = [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xFF, 0xD1, 0x78]
        let table = S.segment(0xC4, [0x10] + [UInt8](repeating: 0, count: 15) + [0xFF, 0xD9])  // a DHT whose values look like EOI
        let comment = S.segment(0xFE, Array("a private comment".utf8))
        let head = [0xFF, 0xD8] + S.jfif + Array(S.jpegImage.prefix(S.jpegImage.count - 13))
        let original = head + sos + scanData + comment + table + sos + scanData + [0xFF, 0xD9] + Array("trailer".utf8)
        let cleaned = try PhotoMetadata.cleaned(original, format: .jpeg)
        #expect(cleaned == head + sos + scanData + table + sos + scanData + [0xFF, 0xD9])
    }

    // MARK: PNG

    @Test("A PNG's size comes from IHDR and its orientation from eXIf")
    func pngFacts() throws {
        #expect(try facts(S.png(width: 640, height: 480)) == PhotoFacts(format: .png, width: 640, height: 480, orientation: 6))
    }

    @Test("A cleaned PNG loses eXIf, text and time, keeps its ICC profile and image, and gets an eXIf holding the orientation alone")
    func pngCleaned() throws {
        let original = S.png()
        let cleaned = try PhotoMetadata.cleaned(original, format: .png)
        let iccp = S.pngChunk("iCCP", Array("sRGB".utf8) + [0, 0] + S.zlibStored(Array("a colour profile".utf8)))
        let exif = S.hex("0000001a65584966") + S.minimalExif(6) + S.hex("d6674b69")  // CRC worked out by zlib
        #expect(cleaned == S.pngSignature + S.pngHeader(width: 1, height: 1) + iccp + exif + S.pngImage + S.pngEnd)
        expectClean(cleaned)
        #expect(!S.contains(cleaned, Array("tIME".utf8)))
        #expect(S.crc32(Array("IEND".utf8)) == 0xAE42_6082 && PNGChunks.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    }

    // MARK: WebP

    @Test("A WebP's size comes from VP8X's canvas, a lossless or a lossy bitstream")
    func webpFacts() throws {
        #expect(try facts(S.webp(canvasWidth: 300, canvasHeight: 200)) == PhotoFacts(format: .webp, width: 300, height: 200, orientation: 6))
        #expect(try facts(S.riff(S.riffChunk("VP8L", S.webpLossless))) == PhotoFacts(format: .webp, width: 1, height: 1))
        #expect(try facts(S.webpLossy(width: 0xC000 | 1024, height: 768)) == PhotoFacts(format: .webp, width: 1024, height: 768))
    }

    @Test("A cleaned WebP loses its EXIF and XMP chunks and their flags, keeps ICC, and its RIFF size is the new one")
    func webpCleaned() throws {
        let upright = try PhotoMetadata.cleaned(S.webp(orientation: 1), format: .webp)
        let vp8x = S.riffChunk("VP8X", [0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        let kept = S.riffChunk("ICCP", Array("a colour profile".utf8)) + S.riffChunk("VP8L", S.webpLossless)
        #expect(upright == S.riff(vp8x + kept))
        expectClean(upright)

        let turned = try PhotoMetadata.cleaned(S.webp(orientation: 6), format: .webp)
        let withExif = S.riffChunk("VP8X", [0x28, 0, 0, 0, 0, 0, 0, 0, 0, 0]) + kept + S.riffChunk("EXIF", S.minimalExif(6))
        #expect(turned == S.riff(withExif))
        expectClean(turned)
        #expect(try facts(turned).orientation == 6)
    }

    // MARK: GIF

    @Test("A GIF's size is its logical screen; cleaned, it keeps its looping and frames but no comment or XMP")
    func gif() throws {
        #expect(try facts(S.gif(width: 320, height: 200)) == PhotoFacts(format: .gif, width: 320, height: 200))
        let cleaned = try PhotoMetadata.cleaned(S.gif(), format: .gif)
        #expect(cleaned == S.gifHeader() + S.gifLooping + S.gifImage + [0x3B])
        expectClean(cleaned)
        // A GIF without its trailer, as some encoders write them, is given one.
        #expect(try PhotoMetadata.cleaned(S.gifHeader() + S.gifImage, format: .gif) == S.gifHeader() + S.gifImage + [0x3B])
    }

    // MARK: HEIC

    @Test("A HEIC's size is its primary item's ispe, turned by irot, not its thumbnail's")
    func heicFacts() throws {
        let photo = try facts(S.heic().file)
        #expect(photo == PhotoFacts(format: .heic, width: 4032, height: 3024, orientation: 6))
        #expect((photo.displayedWidth, photo.displayedHeight) == (3024, 4032))
        #expect(try facts(S.heic(rotation: 0).file).orientation == 1)
    }

    @Test("A cleaned HEIC has the same length and boxes; only its EXIF and XMP items' bytes are overwritten")
    func heicCleaned() throws {
        let (original, exif, xmp) = S.heic()
        let parts = try PhotoMetadata.cleanedParts(of: original, format: .heic)
        let cleaned = try PhotoMetadata.cleaned(original, format: .heic)
        #expect(cleaned.count == original.count)
        #expect(cleaned[..<exif.lowerBound] == original[..<exif.lowerBound])
        #expect(cleaned[xmp.upperBound...] == original[xmp.upperBound...])
        let emptyExif: [UInt8] = [0, 0, 0, 0, 0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]
        #expect(Array(cleaned[exif]) == emptyExif + [UInt8](repeating: 0, count: exif.count - emptyExif.count))
        #expect(String(decoding: cleaned[xmp], as: UTF8.self).trimmingCharacters(in: .whitespaces) == #"<x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#)
        expectClean(cleaned)
        #expect(xmp.upperBound == original.count)  // the XMP ends the file
        #expect(parts.count == 3 && parts.first == .original(0..<exif.lowerBound))
        #expect(try facts(cleaned) == facts(original))
    }

    @Test("A HEIC from a real encoder (libheif) reads as its clean aperture and cleans without its EXIF or XMP")
    func realHEIC() throws {
        #expect(try facts(S.realHEIC) == PhotoFacts(format: .heic, width: 16, height: 8))
        let cleaned = try PhotoMetadata.cleaned(S.realHEIC, format: .heic)
        #expect(cleaned.count == S.realHEIC.count)
        for secret in ["CameraMaker", "SERIAL12345", "GPSLatitude"] {
            #expect(S.contains(S.realHEIC, Array(secret.utf8)) && !S.contains(cleaned, Array(secret.utf8)))
        }
    }

    // MARK: What is refused

    /// Photos whose header claims too many pixels, and the size each claims; JPEG's and GIF's
    /// sides stop at 65,535 and a lossy WebP's at 16,383.
    static let bombs: [String: (bytes: [UInt8], width: Int, height: Int)] = [
        "JPEG": (S.jpeg(height: 65_535, width: 65_535), 65_535, 65_535),
        "PNG": (S.png(width: 100_000, height: 100_000), 100_000, 100_000),
        "GIF": (S.gif(width: 65_535, height: 65_535), 65_535, 65_535),
        "WebP VP8X": (S.webp(canvasWidth: 100_000, canvasHeight: 100_000), 100_000, 100_000),
        "WebP VP8": (S.webpLossy(width: 16_383, height: 16_383), 16_383, 16_383),
        "HEIC": (S.heic(width: 100_000, height: 100_000).file, 100_000, 100_000),
        "too long a side": (S.png(width: 20_001, height: 10), 20_001, 10),
        "too many pixels": (S.png(width: 15_000, height: 10_001), 15_000, 10_001),
    ]

    @Test("A photo bomb of any format is refused from its header", arguments: bombs.keys.sorted())
    func photoBombs(name: String) throws {
        let bomb = try #require(Self.bombs[name])
        #expect(throws: PhotoError.tooManyPixels(width: bomb.width, height: bomb.height)) { try PhotoFacts(of: bomb.bytes) }
    }

    @Test("The largest photos the limits allow are kept")
    func atTheLimits() throws {
        #expect(try facts(S.png(width: 20_000, height: 7_500)).width == 20_000)
        #expect(try facts(S.heic(width: 15_000, height: 10_000).file).height == 10_000)
    }

    @Test("A photo that claims no pixels is unreadable")
    func noPixels() {
        #expect(throws: PhotoError.unreadableHeader(.png)) { try PhotoFacts(of: S.png(width: 0, height: 1)) }
        #expect(throws: PhotoError.unreadableHeader(.gif)) { try PhotoFacts(of: S.gif(width: 1, height: 0)) }
        #expect(throws: PhotoError.unreadableHeader(.heic)) { try PhotoFacts(of: S.heic(width: 0, height: 1).file) }
    }

    static let otherFiles: [String: [UInt8]] = [
        "SVG": Array(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8),
        "HTML": Array("<!doctype html><html><body>hello</body></html>".utf8),
        "PDF": Array("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n".utf8),
        "empty": [],
        "a JPEG's first two bytes": [0xFF, 0xD8],
        "MP4": S.box("ftyp", Array("isom".utf8) + S.be32(0) + Array("isomiso2mp41".utf8)) + S.box("mdat", [1, 2, 3]),
        "AVIF": S.box("ftyp", Array("avif".utf8) + S.be32(0) + Array("avifmif1miaf".utf8)),
        "RIFF WAVE": Array("RIFF".utf8) + S.le32(4) + Array("WAVE".utf8),
    ]

    @Test("Files that are no photo are refused, whatever their name or Content-Type claimed", arguments: otherFiles.keys.sorted())
    func notPhotos(name: String) throws {
        let bytes = try #require(Self.otherFiles[name])
        #expect(throws: PhotoError.notAPhoto) { try PhotoFacts(of: bytes) }
    }

    @Test("Random bytes are no photo")
    func randomBytes() {
        var random = SeededRandom(seed: 19)
        for length in [1, 7, 64, 4096] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(throws: PhotoError.notAPhoto) { try PhotoFacts(of: bytes) }
        }
    }

    @Test("Cleaning is refused for bytes of another format than the one named")
    func wrongFormat() {
        #expect(throws: PhotoError.unreadableHeader(.png)) { try PhotoMetadata.cleanedParts(of: S.jpeg(), format: .png) }
    }

    @Test("A header cut short at any byte is an error, never a crash, and never facts it did not have")
    func truncated() throws {
        let samples: [(PhotoFormat, [UInt8])] = [(.jpeg, S.jpeg()), (.png, S.png()), (.webp, S.webp()), (.gif, S.gif()), (.heic, S.heic().file)]
        for (format, sample) in samples {
            let whole = try facts(sample)
            for length in 0..<sample.count {
                let cut = Array(sample.prefix(length))
                do {
                    // A JPEG is read up to its first scan, and a GIF cut between two blocks
                    // as far as it goes: past those, what is missing is image data, or what
                    // follows the end.
                    #expect(try facts(cut) == whole, "\(format) cut at \(length)")
                } catch let error as PhotoError {
                    #expect(error == .notAPhoto || error == .unreadableHeader(format), "\(format) cut at \(length): \(error)")
                }
                if let parts = try? PhotoMetadata.cleanedParts(of: cut, format: format) {
                    #expect(parts.allSatisfy { part in if case .original(let range) = part { range.upperBound <= length } else { true } })
                }
            }
        }
    }
}

/// A small, seeded generator (SplitMix64), so that random tests fail the same way twice.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The cleaned photo read back in parts, as the stores read it: any range, across the pieces.
@Suite("A cleaned photo reads back the same in any parts")
struct CleanedPhotoTests {
    @Test("Ranges that start past the first pieces, span several or fall in one read the concatenation")
    func ranges() {
        let original = Data((0..<100).map { UInt8($0) })
        let parts: [PhotoPart] = [.original(0..<10), .bytes([200, 201, 202]), .original(50..<60), .bytes([]), .original(90..<100)]
        let whole = Data(Array(0..<10) + [200, 201, 202] + Array(50..<60) + Array(90..<100))
        let photo = CleanedPhoto(original: original, parts: parts)
        #expect(photo.byteCount == whole.count)
        for start in 0...whole.count {
            for end in start...whole.count {
                #expect(photo.bytes(in: start..<end) == whole[start..<end], "\(start)..<\(end)")
            }
        }
    }
}
