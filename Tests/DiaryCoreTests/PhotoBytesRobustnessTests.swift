@testable import DiaryCore
import Foundation
import Testing

/// Every input an upload can be, short of the whole space: valid photos changed at random
/// (bytes flipped, sizes made huge or zero, parts cut out, copied or added), each read for its
/// facts and cleaned. None may trap or hang; whatever is read must hold the limits, and whatever
/// is kept must lie inside the file. The generator is seeded: a failure comes back the same.
@Suite("Photo bytes, mutated")
struct PhotoBytesRobustnessTests {
    typealias S = PhotoSamples

    static let samples: [String: [UInt8]] = [
        "JPEG": S.jpeg(), "PNG": S.png(), "WebP": S.webp(), "WebP lossy": S.webpLossy(width: 10, height: 10),
        "GIF": S.gif(), "HEIC": S.heic().file, "HEIC from libheif": S.realHEIC,
        "GIF animation": S.gifAnimation(width: 4, height: 4, frames: [S.gifFrame(width: 4, height: 4), S.gifFrame(left: 1, top: 1, width: 2, height: 2)]),
        "APNG": S.apng(width: 4, height: 4, frames: [.init(width: 4, height: 4), .init(width: 2, height: 2, x: 1, y: 1)]),
        "WebP animation": S.webpAnimation(
            width: 4, height: 4,
            frames: [S.webpFrame(.init(width: 4, height: 4)), S.webpFrame(.init(width: 2, height: 2, x: 2, y: 2), extra: S.webpOtherChunks)]),
        "HEIC with extras": S.heicWithExtras().file,
    ]

    @Test(
        "Mutated photos never trap or hang, and never give facts or parts outside the limits", .timeLimit(.minutes(2)),
        arguments: samples.keys.sorted())
    func mutated(name: String) throws {
        let sample = try #require(Self.samples[name])
        var random = SeededRandom(seed: UInt64(name.utf8.reduce(19) { $0 &* 31 &+ UInt64($1) }))
        for round in 0..<1_500 {
            var bytes = sample
            for _ in 0..<Int.random(in: 1...4, using: &random) { mutate(&bytes, using: &random) }
            check(bytes, "\(name), round \(round)")
        }
    }

    @Test("Sizes that claim far more than the file holds are unreadable, not read")
    func hugeClaims() {
        var png = S.png()
        png.replaceSubrange(33..<37, with: S.be32(0x7FFF_FFFF))  // iCCP's length
        #expect(throws: PhotoError.unreadableHeader(.png)) { try PhotoFacts(of: png) }

        var webp = S.webp()
        webp.replaceSubrange(4..<8, with: S.le32(0xFFFF_FFFF))  // the RIFF's size
        #expect(throws: PhotoError.unreadableHeader(.webp)) { try PhotoFacts(of: webp) }

        let hugeBox = S.be32(1) + Array("free".utf8) + [UInt8](repeating: 0xFF, count: 8)
        #expect(throws: PhotoError.unreadableHeader(.heic)) { try PhotoFacts(of: S.heic().file + hugeBox) }

        let jpeg = [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF] + Array("Exif".utf8)
        #expect(throws: PhotoError.unreadableHeader(.jpeg)) { try PhotoFacts(of: jpeg) }
        #expect(throws: PhotoError.unreadableHeader(.gif)) {
            try PhotoMetadata.cleanedParts(of: S.gifHeader() + [0x21, 0xFE, 0xFF, 1, 2], format: .gif)
        }
    }

    @Test("Boxes nested a hundred thousand deep are not followed down")
    func deepNesting() {
        let depth = 100_000
        var nested: [UInt8] = []
        for level in 0..<depth { nested += S.be32(UInt32(8 * (depth - level) + 8)) + Array("dinf".utf8) }
        nested += S.box("free", [])
        // One more top-level box, which nothing opens: only boxes on the path to `ispe` are.
        let file = S.heic().file + nested
        check(file, "nested boxes")
        #expect(throws: Never.self) { try PhotoFacts(of: file) }
    }

    @Test("Ten thousand fill bytes, and a JPEG of nothing but markers, end")
    func endlessMarkers() {
        let filled = [0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 10_000)
        #expect(throws: PhotoError.unreadableHeader(.jpeg)) { try PhotoFacts(of: filled) }
        let restarts: [UInt8] = [0xFF, 0xD8] + Array(repeating: [UInt8]([0xFF, 0xD0]), count: 5_000).joined()
        #expect(throws: PhotoError.unreadableHeader(.jpeg)) { try PhotoFacts(of: restarts) }
    }

    /// Reads `bytes` every way the server will, and checks what comes out.
    func check(_ bytes: [UInt8], _ what: String) {
        if let facts = try? PhotoFacts(of: bytes) {
            #expect(facts.width > 0 && facts.height > 0, "\(what): \(facts)")
            #expect(facts.width <= PhotoFacts.maximumSide && facts.height <= PhotoFacts.maximumSide, "\(what): \(facts)")
            #expect(facts.width * facts.height <= PhotoFacts.maximumPixels, "\(what): \(facts)")
            #expect(facts.orientation.map { (1...8).contains($0) } ?? true, "\(what): \(facts)")
        }
        for format in PhotoFormat.allCases {
            guard let parts = try? PhotoMetadata.cleanedParts(of: bytes, format: format) else { continue }
            for part in parts {
                switch part {
                case .original(let range): #expect(range.lowerBound >= 0 && range.upperBound <= bytes.count && !range.isEmpty, "\(what)")
                case .bytes(let added): #expect(added.count <= max(bytes.count, 64), "\(what)")
                }
            }
        }
    }

    func mutate(_ bytes: inout [UInt8], using random: inout SeededRandom) {
        guard !bytes.isEmpty else {
            bytes = [UInt8.random(in: 0...255, using: &random)]
            return
        }
        let at = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<7, using: &random) {
        case 0:
            bytes[at] = UInt8.random(in: 0...255, using: &random)
        case 1:
            // A size or offset made extreme.
            let value = [0, 1, 2, 7, 8, 0x7F, 0xFF, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF].randomElement(using: &random)!
            let width = min(4, bytes.count - at)
            bytes.replaceSubrange(at..<at + width, with: S.be32(UInt32(value)).suffix(width))
        case 2:
            bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &random)))
        case 3:
            bytes.insert(contentsOf: (0..<Int.random(in: 1...16, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, at: at)
        case 4:
            bytes.removeSubrange(at...)
        case 5:
            let end = min(bytes.count, at + Int.random(in: 1...128, using: &random))
            bytes.insert(contentsOf: bytes[at..<end], at: Int.random(in: 0...bytes.count, using: &random))
        default:
            bytes[at] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        }
    }
}
