@testable import DiaryCore
import Foundation

/// Animations built byte by byte: GIF frames, animated PNG (APNG) and animated WebP, each frame
/// with its own size and place on the canvas. Their image data is the 1 × 1 data of the still
/// samples: only headers are read, so a frame may claim any size.
extension PhotoSamples {
    // MARK: GIF

    /// One GIF frame: a graphic control extension (a tenth of a second), then an image
    /// descriptor of `width × height` at (`left`, `top`), no colour table, and 1 × 1 LZW data.
    static func gifFrame(left: UInt16 = 0, top: UInt16 = 0, width: UInt16, height: UInt16) -> [UInt8] {
        [0x21, 0xF9, 0x04, 0x04, 0x0A, 0x00, 0x00, 0x00]
            + [0x2C] + le16(left) + le16(top) + le16(width) + le16(height) + [0x00, 0x02, 0x02, 0x44, 0x01, 0x00]
    }

    /// A looping GIF whose logical screen is `width × height`.
    static func gifAnimation(width: UInt16, height: UInt16, frames: [[UInt8]]) -> [UInt8] {
        gifHeader(width: width, height: height) + gifLooping + Array(frames.joined()) + [0x3B]
    }

    // MARK: APNG

    struct Frame {
        var width: UInt32
        var height: UInt32
        var x: UInt32 = 0
        var y: UInt32 = 0
    }

    /// An animated PNG of `width × height`: acTL (declaring `declared` frames, or as many as
    /// there are), then each frame's fcTL and its data, the first frame's in IDAT, the others'
    /// in fdAT, numbered in one sequence as APNG wants.
    static func apng(width: UInt32, height: UInt32, frames: [Frame], declared: UInt32? = nil) -> [UInt8] {
        var file = pngSignature + pngHeader(width: width, height: height) + pngChunk("acTL", be32(declared ?? UInt32(frames.count)) + be32(0))
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            file += pngChunk("fcTL", be32(sequence) + be32(frame.width) + be32(frame.height) + be32(frame.x) + be32(frame.y) + be16(1) + be16(10) + [0, 0])
            sequence += 1
            if index == 0 {
                file += pngImage
            } else {
                file += pngChunk("fdAT", be32(sequence) + zlibStored([0, 200, 30, 40]))
                sequence += 1
            }
        }
        return file + (frames.isEmpty ? pngImage : []) + pngEnd
    }

    // MARK: WebP

    /// One ANMF chunk: a frame of `width × height` at (`x`, `y`) (even numbers: WebP keeps half
    /// of each), shown for 100 ms; its image the 1 × 1 lossless one unless `image` is given,
    /// followed by `extra` chunks.
    static func webpFrame(_ frame: Frame, image: [UInt8]? = nil, extra: [UInt8] = []) -> [UInt8] {
        let header = le24(frame.x / 2) + le24(frame.y / 2) + le24(frame.width - 1) + le24(frame.height - 1) + le24(100) + [0x00]
        return riffChunk("ANMF", header + (image ?? riffChunk("VP8L", webpLossless)) + extra)
    }

    /// An animated WebP: VP8X (alpha and animation flags) with a `width × height` canvas, ANIM
    /// (a white background, looping for ever), the frames, then `extra` chunks.
    static func webpAnimation(width: UInt32, height: UInt32, frames: [[UInt8]], extra: [UInt8] = []) -> [UInt8] {
        let vp8x = riffChunk("VP8X", [0x12, 0, 0, 0] + le24(width - 1) + le24(height - 1))
        return riff(vp8x + riffChunk("ANIM", [0xFF, 0xFF, 0xFF, 0xFF, 0, 0]) + Array(frames.joined()) + extra)
    }

    /// A lossless bitstream whose header claims `width × height` (up to 16,384 a side); the data
    /// after the header is the 1 × 1 image's, which no one decodes here.
    static func webpLossless(claiming width: UInt32, _ height: UInt32) -> [UInt8] {
        [0x2F] + le32((width - 1) | (height - 1) << 14) + webpLossless.dropFirst(5)
    }
}
