@testable import DiaryCore
import Foundation
import Testing

/// Cleaning keeps what is known to draw the picture rather than dropping what is known to tell
/// about its taker: Content Credentials (C2PA), chunks, segments, boxes and items of kinds no
/// list names, and words after a known part's fields all go, in every format.
@Suite("Photo metadata, kept by what draws the picture")
struct PhotoAllowlistTests {
    typealias S = PhotoSamples

    /// None of the secrets, nor any of `words`, is in `cleaned`.
    func expectGone(_ cleaned: [UInt8], _ words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for word in S.secrets + words {
            #expect(!S.contains(cleaned, Array(word.utf8)), "\(word) is still in the photo", sourceLocation: sourceLocation)
        }
    }

    @Test("A cleaned PNG keeps the chunks that draw it and loses Content Credentials (caBX), unknown chunks and the rest")
    func png() throws {
        let head = S.pngSignature + S.pngHeader(width: 1, height: 1)
        let afterImage = S.pngChunk("zzZz", Array("after the image: \(S.serial)".utf8)) + S.pngChunk("caBX", S.contentCredentials)
        let original = head + S.pngDrawingChunks + S.pngOtherChunks + S.pngImage + afterImage + S.pngEnd
        let cleaned = try PhotoMetadata.cleaned(original, format: .png)
        #expect(cleaned == head + S.pngDrawingChunks + S.pngImage + S.pngEnd)
        expectGone(cleaned, ["caBX", "c2pa", "jumb", "zzZz", "sPLT", "bKGD", "dSIG"])
    }

    @Test("A cleaned WebP keeps VP8X, ICC and the image, and loses Content Credentials (C2PA), unknown chunks and VP8X's reserved bits")
    func webp() throws {
        let vp8x = S.riffChunk("VP8X", [0x2C | 0xC1, 1, 2, 3, 0, 0, 0, 0, 0, 0] + Array(" and after: Jane Doe".utf8))
        let iccp = S.riffChunk("ICCP", Array("a colour profile".utf8))
        let image = S.riffChunk("VP8L", S.webpLossless)
        let original = S.riff(
            vp8x + iccp + S.webpOtherChunks + image + S.riffChunk("EXIF", S.exif(orientation: 1)) + S.riffChunk("XMP ", S.xmp) + S.webpOtherChunks)
        let cleaned = try PhotoMetadata.cleaned(original, format: .webp)
        #expect(cleaned == S.riff(S.riffChunk("VP8X", [0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0]) + iccp + image))
        expectGone(cleaned, ["C2PA", "c2pa", "jumb", "zzZz"])
    }

    @Test("An animated WebP keeps each frame's alpha and image, and loses the chunks of other kinds inside a frame and after it")
    func webpAnimation() throws {
        let lossy = S.riffChunk("ALPH", [0, 0x80]) + S.riffChunk("VP8 ", [0x90, 0x01, 0x00, 0x9D, 0x01, 0x2A] + S.le16(1) + S.le16(1) + [0, 0])
        let frames = [S.webpFrame(.init(width: 1, height: 1), image: lossy), S.webpFrame(.init(width: 1, height: 1, x: 2, y: 2))]
        let withOthers = [S.webpFrame(.init(width: 1, height: 1), image: lossy, extra: S.webpOtherChunks),
                          S.webpFrame(.init(width: 1, height: 1, x: 2, y: 2), extra: S.riffChunk("zzZ ", [1, 2, 3]))]
        let original = S.webpAnimation(width: 4, height: 4, frames: withOthers, extra: S.webpOtherChunks)
        let cleaned = try PhotoMetadata.cleaned(original, format: .webp)
        #expect(cleaned == S.webpAnimation(width: 4, height: 4, frames: frames))
        expectGone(cleaned, ["C2PA", "c2pa", "zzZz", "zzZ "])
    }

    @Test("A cleaned GIF keeps its images, timing and looping, each extension with its fields alone, and loses plain text and unknown kinds")
    func gif() throws {
        let looping = [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x05, 0x01, 0x00, 0x00, 0x4A, 0x44] + S.subBlocks(Array(S.serial.utf8))
        let plainText = [0x21, 0x01, 0x0C] + [UInt8](repeating: 0, count: 12) + S.subBlocks(Array("Jane Doe".utf8))
        let unknown = [0x21, 0x99] + S.subBlocks(Array(S.maker.utf8))
        let timing: [UInt8] = [0x21, 0xF9, 0x04, 0x04, 0x0A, 0x00, 0x00]
        let image = Array(S.gifImage.dropFirst(8))
        let original = S.gifHeader() + looping + plainText + unknown + timing + S.subBlocks(Array(S.place.utf8)) + image + [0x3B]
        let cleaned = try PhotoMetadata.cleaned(original, format: .gif)
        #expect(cleaned == S.gifHeader() + S.gifLooping + timing + [0x00] + image + [0x3B])
        expectGone(cleaned, [])
    }

    @Test("A cleaned JPEG keeps the segments that draw it and loses Content Credentials (APP11), other APPn, extension and reserved markers")
    func jpeg() throws {
        let restartInterval = S.segment(0xDD, S.be16(0))
        let original = [0xFF, 0xD8] + S.jfif + S.jpegOtherSegments + S.iccProfile + S.adobeWithWords + restartInterval + S.jpegImage
        let cleaned = try PhotoMetadata.cleaned(original, format: .jpeg)
        #expect(cleaned == [0xFF, 0xD8] + S.jfif + S.iccProfile + S.adobe + restartInterval + S.jpegImage)
        expectGone(cleaned, ["c2pa", "jumb"])
    }

    @Test("Between a progressive JPEG's scans, segments of other kinds go as they do before the first")
    func jpegBetweenScans() throws {
        let sos = S.hex("ffda0008010100003f00")
        let scanData: [UInt8] = [0x12, 0xFF, 0x00, 0x34]
        let head = [0xFF, 0xD8] + S.jfif + Array(S.jpegImage.prefix(S.jpegImage.count - 13))
        let original = head + sos + scanData + S.jpegOtherSegments + sos + scanData + [0xFF, 0xD9]
        #expect(try PhotoMetadata.cleaned(original, format: .jpeg) == head + sos + scanData + sos + scanData + [0xFF, 0xD9])
    }

    @Test("A cleaned HEIC keeps its length, its picture and what draws it; C2PA, XML, a user description, unknown items and unnamed bytes are overwritten")
    func heic() throws {
        let (original, image) = S.heicWithExtras()
        let cleaned = try PhotoMetadata.cleaned(original, format: .heic)
        #expect(cleaned.count == original.count)
        #expect(cleaned[image] == original[image])
        expectGone(cleaned, ["c2pa", "jumb", "udes", "xml ", "uuid"])
        for kept in ["ftyp", "meta", "hdlr", "pitm", "iloc", "iinf", "iprp", "ipco", "hvcC", "ispe", "irot", "ipma", "mdat"] {
            #expect(S.contains(cleaned, Array(kept.utf8)), "\(kept) is gone")
        }
        #expect(try PhotoFacts(of: cleaned) == PhotoFacts(of: original))
        #expect(try PhotoMetadata.cleaned(cleaned, format: .heic) == cleaned)
    }
}
