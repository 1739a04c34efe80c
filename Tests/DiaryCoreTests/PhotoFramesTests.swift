@testable import DiaryCore
import Foundation
import Testing

/// Every frame an image declares holds the limits, not only its canvas: a GIF frame reaching
/// past a small logical screen (browsers enlarge the screen to hold it), an APNG or animated
/// WebP frame outside its canvas (which their specifications refuse), and animations whose
/// frames together are gigabytes to draw from a file of a few kilobytes.
@Suite("Photo frames")
struct PhotoFramesTests {
    typealias S = PhotoSamples
    typealias Frame = PhotoSamples.Frame

    func facts(_ bytes: [UInt8]) throws -> PhotoFacts { try PhotoFacts(of: bytes) }

    // MARK: GIF

    @Test("A GIF frame of 60,000 × 60,000 on a 10 × 10 screen is a photo bomb, whichever frame it is")
    func gifFrameBomb() {
        let first = S.gifAnimation(width: 10, height: 10, frames: [S.gifFrame(width: 60_000, height: 60_000)])
        #expect(throws: PhotoError.tooManyPixels(width: 60_000, height: 60_000)) { try facts(first) }
        let later = S.gifAnimation(width: 10, height: 10, frames: [S.gifFrame(width: 10, height: 10), S.gifFrame(width: 30_000, height: 10)])
        #expect(throws: PhotoError.tooManyPixels(width: 30_000, height: 10)) { try facts(later) }
    }

    @Test("A small GIF frame placed far outside the screen reaches as far as it is placed")
    func gifFrameFarOutside() {
        let right = S.gifAnimation(width: 10, height: 10, frames: [S.gifFrame(left: 65_000, top: 0, width: 1, height: 1)])
        #expect(throws: PhotoError.tooManyPixels(width: 65_001, height: 10)) { try facts(right) }
        let corner = S.gifAnimation(width: 100, height: 100, frames: [S.gifFrame(left: 14_000, top: 14_000, width: 1, height: 1)])
        #expect(throws: PhotoError.tooManyPixels(width: 14_001, height: 14_001)) { try facts(corner) }
    }

    @Test("A GIF frame a little past its screen, as some encoders write them, is kept; the size is the screen's")
    func gifFrameSlightlyOutside() throws {
        let gif = S.gifAnimation(width: 100, height: 80, frames: [S.gifFrame(left: 50, top: 0, width: 60, height: 90)])
        #expect(try facts(gif) == PhotoFacts(format: .gif, width: 100, height: 80))
        #expect(try PhotoMetadata.cleaned(gif, format: .gif) == gif)
    }

    // MARK: APNG

    @Test("An APNG frame larger than its canvas or placed outside it is refused, as the APNG specification requires, after the image data too")
    func apngFrameOutside() {
        let oversized = S.apng(width: 1, height: 1, frames: [Frame(width: 60_000, height: 60_000)])
        #expect(throws: PhotoError.unreadableHeader(.png)) { try facts(oversized) }
        let placedOutside = S.apng(width: 100, height: 100, frames: [Frame(width: 100, height: 100), Frame(width: 10, height: 10, x: 95)])
        #expect(throws: PhotoError.unreadableHeader(.png)) { try facts(placedOutside) }
        let laterBomb = S.apng(width: 100, height: 100, frames: [Frame(width: 100, height: 100), Frame(width: 60_000, height: 60_000)])
        #expect(throws: PhotoError.unreadableHeader(.png)) { try facts(laterBomb) }
        let wrapping = S.apng(width: 100, height: 100, frames: [Frame(width: 100, height: 100), Frame(width: 2, height: 2, x: 0xFFFF_FFFF)])
        #expect(throws: PhotoError.unreadableHeader(.png)) { try facts(wrapping) }
    }

    @Test("An APNG whose frames lie in its canvas is kept with its animation chunks")
    func apngKept() throws {
        let apng = S.apng(width: 100, height: 100, frames: [Frame(width: 100, height: 100), Frame(width: 10, height: 10, x: 90, y: 90)])
        #expect(try facts(apng) == PhotoFacts(format: .png, width: 100, height: 100))
        #expect(try PhotoMetadata.cleaned(apng, format: .png) == apng)
    }

    // MARK: WebP

    @Test("An animated WebP frame larger than its canvas, placed outside it, or whose image is larger, is refused, as libwebp refuses it")
    func webpFrameOutside() {
        let oversized = S.webpAnimation(width: 1, height: 1, frames: [S.webpFrame(Frame(width: 60_000, height: 60_000))])
        #expect(throws: PhotoError.unreadableHeader(.webp)) { try facts(oversized) }
        let placedOutside = S.webpAnimation(width: 100, height: 100, frames: [S.webpFrame(Frame(width: 10, height: 10, x: 96))])
        #expect(throws: PhotoError.unreadableHeader(.webp)) { try facts(placedOutside) }
        let bigImage = S.riffChunk("VP8L", S.webpLossless(claiming: 16_384, 16_384))
        let bigFrameImage = S.webpAnimation(width: 100, height: 100, frames: [S.webpFrame(Frame(width: 10, height: 10), image: bigImage)])
        #expect(throws: PhotoError.unreadableHeader(.webp)) { try facts(bigFrameImage) }
        // A still image larger than the canvas VP8X gives it, too.
        let still = S.riff(S.riffChunk("VP8X", [0, 0, 0, 0] + S.le24(0) + S.le24(0)) + bigImage)
        #expect(throws: PhotoError.unreadableHeader(.webp)) { try facts(still) }
    }

    @Test("An animated WebP whose frames lie in its canvas is kept as it is")
    func webpKept() throws {
        let frames = [S.webpFrame(Frame(width: 100, height: 100)), S.webpFrame(Frame(width: 10, height: 10, x: 90, y: 90))]
        let webp = S.webpAnimation(width: 100, height: 100, frames: frames)
        #expect(try facts(webp) == PhotoFacts(format: .webp, width: 100, height: 100))
        #expect(try PhotoMetadata.cleaned(webp, format: .webp) == webp)
    }

    // MARK: All frames together

    /// An animation of `count` frames on a `side × side` canvas, each filling it, in each format.
    static let animations: [String: @Sendable (_ side: UInt16, _ count: Int) -> [UInt8]] = [
        "GIF": { side, count in
            S.gifAnimation(width: side, height: side, frames: Array(repeating: S.gifFrame(width: side, height: side), count: count))
        },
        "APNG": { side, count in
            S.apng(width: UInt32(side), height: UInt32(side), frames: Array(repeating: Frame(width: UInt32(side), height: UInt32(side)), count: count))
        },
        "WebP": { side, count in
            let frame = S.webpFrame(Frame(width: UInt32(side), height: UInt32(side)))
            return S.webpAnimation(width: UInt32(side), height: UInt32(side), frames: Array(repeating: frame, count: count))
        },
    ]

    @Test(
        "Frames count at their canvas's size: 150 frames of 1,000 × 1,000 are kept, 151 (151 million pixels) are refused",
        arguments: animations.keys.sorted())
    func framePixels(format: String) throws {
        let animation = try #require(Self.animations[format])
        #expect(try facts(animation(1_000, 150)).width == 1_000)
        #expect(throws: PhotoError.tooManyFrames(count: 151, width: 1_000, height: 1_000)) { try facts(animation(1_000, 151)) }
    }

    @Test("However small the frames, an animation has at most 10,000", arguments: animations.keys.sorted())
    func frameCount(format: String) throws {
        let animation = try #require(Self.animations[format])
        #expect(try facts(animation(1, 10_000)).width == 1)
        #expect(throws: PhotoError.tooManyFrames(count: 10_001, width: 1, height: 1)) { try facts(animation(1, 10_001)) }
    }

    @Test("An APNG's declared frame count counts, however few frames follow it")
    func apngDeclaredCount() {
        let claim = S.apng(width: 1_000, height: 1_000, frames: [Frame(width: 1_000, height: 1_000)], declared: 4_000_000_000)
        #expect(throws: PhotoError.tooManyFrames(count: 4_000_000_000, width: 1_000, height: 1_000)) { try facts(claim) }
    }

    @Test("The message says how many frames, and what Diary keeps")
    func message() {
        let message = PhotoError.tooManyFrames(count: 151, width: 1_000, height: 1_000).description
        #expect(message.contains("151 frames of 1,000 × 1,000 pixels"))
        #expect(message.contains("10,000 frames and 150 million pixels"))
    }
}
