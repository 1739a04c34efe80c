import Foundation
import Testing

/// `diary new --photo` and `diary show` with photos: real PNG files, the real binary.
@Suite("Photos on the command line", .serialized)
struct PhotoCommandTests {
    @Test("new --photo keeps each photo once with the entry; show lists them; --json names them")
    func newWithPhotos() throws {
        let diary = try DiaryProcess()
        let beach = try diary.file("beach.png", TestPNG.make(width: 64, height: 48, shade: 10))
        let shells = try diary.file("shells.png", TestPNG.make(width: 20, height: 30, shade: 200))
        let saved = try diary.run(["new", "At the beach", "--photo", beach, "--photo", shells, "--photo", beach])
        #expect(saved.status == 0, "\(saved.error)")
        #expect(saved.output.contains("with 2 photos"))
        let id = try #require(try diary.entries().first?["id"] as? String)
        let shown = try diary.run(["show", String(id.prefix(8))])
        #expect(shown.output.contains("2 photos:"))
        #expect(shown.output.contains("1. ") && shown.output.contains("64 × 48"))
        #expect(shown.output.contains("2. ") && shown.output.contains("20 × 30"))
        let json = try diary.run(["show", id, "--json"])
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let photos = try #require(entry["photos"] as? [[String: Any]])
        #expect(photos.count == 2)
        #expect(photos.allSatisfy { ($0["id"] as? String)?.count == 64 })
        #expect(photos.first?["width"] as? Int == 64)
    }

    @Test("A photo alone is an entry: no words needed, no editor opened")
    func photoAlone() throws {
        let diary = try DiaryProcess()
        let photo = try diary.file("alone.png", TestPNG.make(width: 8, height: 8, shade: 1))
        let saved = try diary.run(["new", "--photo", photo])
        #expect(saved.status == 0, "\(saved.error)")
        #expect(saved.output.contains("with a photo"))
        #expect(try diary.entries().count == 1)
    }

    @Test("A file that is not a photo, or not there, is named in the error and nothing is saved")
    func refused() throws {
        let diary = try DiaryProcess()
        let notes = try diary.file("notes.txt", Data("just words\n".utf8))
        let refused = try diary.run(["new", "Notes", "--photo", notes])
        #expect(refused.status != 0)
        #expect(refused.error.contains("notes.txt") && refused.error.contains("JPEG"))
        let missing = try diary.run(["new", "Gone", "--photo", diary.folder.appendingPathComponent("gone.jpg").path])
        #expect(missing.status != 0)
        #expect(missing.error.contains("gone.jpg"))
        #expect(try diary.entries().isEmpty)
    }
}

extension DiaryProcess {
    /// Writes `data` to a file named `name` in the test's folder; its path.
    func file(_ name: String, _ data: Data) throws -> String {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }
}

/// A real PNG of one grey shade, written by hand (signature, IHDR, an uncompressed zlib IDAT,
/// IEND, each chunk with its CRC): any decoder reads it.
enum TestPNG {
    static func make(width: Int, height: Int, shade: UInt8) -> Data {
        var raw = [UInt8]()
        for _ in 0..<height {
            raw.append(0)  // filter: none
            raw.append(contentsOf: repeatElement(shade, count: width * 3))
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        png.append(chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0]))
        png.append(chunk("IDAT", zlibStored(raw)))
        png.append(chunk("IEND", []))
        return png
    }

    private static func chunk(_ kind: String, _ data: [UInt8]) -> Data {
        let body = Array(kind.utf8) + data
        return Data(bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body)))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// zlib with "stored" (uncompressed) deflate blocks, and its Adler-32.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var index = 0
        repeat {
            let length = min(65_535, data.count - index)
            let last: UInt8 = index + length >= data.count ? 1 : 0
            out += [last, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[index..<index + length]
            index += length
        } while index < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
