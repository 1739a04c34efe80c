#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Addresses of this computer itself: 127.0.0.0/8, ::1, and 127.x written as IPv6
/// (::ffff:127.0.0.1). A client at one of them is someone on this machine.
enum LoopbackAddress {
    static func contains(_ address: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        let loopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
        let mappedV4 = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        return loopback || mappedV4
    }
}
