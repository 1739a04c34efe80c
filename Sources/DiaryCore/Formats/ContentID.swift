import Foundation

/// An id made from a record's content, for files whose records carry none (the original app's
/// sample format): importing the same file into the same diary again finds the same ids and adds
/// nothing, as importing Diary's own export does.
///
/// The hash is 128-bit FNV-1a: not a secret, only a name, and a collision could at worst make one
/// import skip a record of the importer's own diary (ids are per diary). Identical records are
/// told apart by how many came before them, so all 15 of the sample's stay distinct entries.
enum ContentID {
    static func make(_ parts: [String], occurrence: Int) -> UUID {
        var hash: UInt128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d  // FNV-128 offset basis
        let prime: UInt128 = 0x0000_0000_0100_0000_0000_0000_0000_013B
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                hash ^= UInt128(byte)
                hash = hash &* prime
            }
        }
        // The occurrence goes first, so that it changes every byte of the hash: FNV-1a moves
        // only the low bytes for what comes last, and identical records' ids shared their start
        // (the short ids the command line shows).
        mix(String(occurrence).utf8)
        mix([0x1F])
        for part in parts {
            mix(String(part.utf8.count).utf8)  // lengths first, so ("ab", "c") differs from ("a", "bc")
            mix([0x1F])
            mix(part.utf8)
        }
        var bytes = withUnsafeBytes(of: hash.bigEndian) { Array($0) }
        bytes[6] = bytes[6] & 0x0F | 0x80  // version 8: "custom", RFC 9562
        bytes[8] = bytes[8] & 0x3F | 0x80  // the RFC's variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
