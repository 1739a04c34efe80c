import Foundation

/// A ZIP of stored (uncompressed) files, their names marked UTF-8: any name a hostile ZIP may
/// carry, which tools on disk would refuse to make. And any directory a hostile ZIP may carry:
/// entries pointing at one file's bytes, or past the end; bytes that claim another checksum or
/// another compression.
enum StoredZip {
    /// One file as the ZIP holds it: its bytes, how they are compressed (0 stored, 8 Deflate)
    /// and what the headers say they unpack to.
    struct Member {
        var name: String
        var bytes: [UInt8]
        var method: UInt16 = 0
        var size: Int?
        var checksum: UInt32?

        init(_ name: String, _ bytes: [UInt8], method: UInt16 = 0, size: Int? = nil, checksum: UInt32? = nil) {
            (self.name, self.bytes, self.method, self.size, self.checksum) = (name, bytes, method, size, checksum)
        }
    }

    static func data(_ files: [(name: String, bytes: [UInt8])]) -> Data {
        data(files.map { Member($0.name, $0.bytes) })
    }

    /// The members one after another, then a directory: by default one entry for each member,
    /// or `directory`'s, each a name and the offset its header is said to be at (`at(i)`: member
    /// `i`'s; several entries at one are overlapping files).
    static func data(_ members: [Member], directory: [(name: String, offset: Offset)]? = nil) -> Data {
        var local: [UInt8] = [], offsets: [Int] = []
        for member in members {
            offsets.append(local.count)
            local += le32(0x0403_4B50) + common(member, name: member.name) + le16(0) + Array(member.name.utf8) + member.bytes
        }
        var central: [UInt8] = []
        let entries = directory ?? members.indices.map { (members[$0].name, Offset.at($0)) }
        for (name, offset) in entries {
            let (member, at): (Member, Int) = switch offset {
            case .at(let index): (members[index], offsets[index])
            case .past(let bytes): (members.last!, local.count + bytes)
            }
            central += le32(0x0201_4B50) + le16(20) + common(member, name: name) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0)
                + le32(UInt32(at)) + Array(name.utf8)
        }
        let count = le16(UInt16(entries.count))
        let end = le32(0x0605_4B50) + le16(0) + le16(0) + count + count + le32(UInt32(central.count)) + le32(UInt32(local.count)) + le16(0)
        return Data(local + central + end)
    }

    /// Where a directory entry says its file's header is: member `i`'s, or `bytes` past the
    /// last member's end (the last member's sizes).
    enum Offset {
        case at(Int)
        case past(Int)
    }

    /// Version 2.0, flag 0x0800 (UTF-8 names), the method, no time: then the checksum, the
    /// sizes and the name's length.
    private static func common(_ member: Member, name: String) -> [UInt8] {
        let size = UInt32(member.size ?? member.bytes.count)
        return le16(20) + le16(0x0800) + le16(member.method) + le16(0) + le16(0) + le32(member.checksum ?? crc32(member.bytes))
            + le32(UInt32(member.bytes.count)) + le32(size) + le16(UInt16(name.utf8.count))
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
