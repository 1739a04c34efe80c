import Foundation

/// A ZIP of stored (uncompressed) files, their names marked UTF-8: any name a hostile ZIP may
/// carry, which tools on disk would refuse to make.
enum StoredZip {
    static func data(_ files: [(name: String, bytes: [UInt8])]) -> Data {
        var local: [UInt8] = [], central: [UInt8] = []
        for (name, bytes) in files {
            let offset = UInt32(local.count), path = Array(name.utf8), size = UInt32(bytes.count), crc = crc32(bytes)
            // Version 2.0, flag 0x0800 (UTF-8 names), stored, no time: then the sizes and the name.
            let common = le16(20) + le16(0x0800) + le16(0) + le16(0) + le16(0) + le32(crc) + le32(size) + le32(size) + le16(UInt16(path.count))
            local += le32(0x0403_4B50) + common + le16(0) + path + bytes
            central += le32(0x0201_4B50) + le16(20) + common + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + path
        }
        let count = le16(UInt16(files.count))
        let end = le32(0x0605_4B50) + le16(0) + le16(0) + count + count + le32(UInt32(central.count)) + le32(UInt32(local.count)) + le16(0)
        return Data(local + central + end)
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
