#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NIOCore

/// An IP address as its bytes (4 for IPv4, 16 for IPv6), for comparing with the ranges of
/// trusted proxies. An IPv6 address that carries an IPv4 one (`::ffff:127.0.0.1`, as a socket
/// listening on `::` sees IPv4 clients) is that IPv4 address.
struct NetworkAddress: Hashable, Sendable {
    let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    init?(_ text: some StringProtocol) {
        guard !text.isEmpty, text.utf8.count <= 64,
              let address = try? SocketAddress(ipAddress: String(text), port: 0)
        else { return nil }
        self.init(address)
    }

    init?(_ address: SocketAddress) {
        switch address {
        case .v4(let v4):
            bytes = withUnsafeBytes(of: v4.address.sin_addr) { Array($0) }
        case .v6(let v6):
            let all = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]
            bytes = Array(all.prefix(12)) == mappedPrefix ? Array(all.suffix(4)) : all
        case .unixDomainSocket:
            return nil
        }
    }

    /// An address as it may appear in `X-Forwarded-For`: bare, `[v6]`, `v4:port` or `[v6]:port`.
    init?(forwarded text: Substring) {
        let text = text.trimmingCharacters(in: .whitespaces)[...]
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            self.init(text[text.index(after: text.startIndex)..<close])
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            self.init(text[..<colon])
        } else {
            self.init(text)
        }
    }

    var isLoopback: Bool {
        bytes.count == 4 ? bytes[0] == 127 : bytes == Array(repeating: 0, count: 15) + [1]
    }

    /// The conventional text: dotted for IPv4, RFC 5952 for IPv6.
    var text: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: bytes) }
        return SocketAddress(address, host: "").ipAddress ?? "?"
    }
}

/// A range of addresses: one address, or a CIDR block such as `10.0.0.0/8` or `fd00::/8`.
struct AddressRange: Sendable, CustomStringConvertible {
    let network: NetworkAddress
    let prefixLength: Int

    /// Parses `ADDRESS` or `ADDRESS/BITS`; nil if it is neither.
    init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let network = NetworkAddress(parts[0]) else { return nil }
        let maximum = parts[0].contains(":") ? 128 : 32
        if parts.count == 2 {
            guard let bits = Int(parts[1]), (0...maximum).contains(bits) else { return nil }
            // An IPv4-mapped IPv6 range counts its bits as IPv6 does.
            prefixLength = network.bytes.count == 4 && parts[0].contains(":") ? max(0, bits - 96) : bits
        } else {
            prefixLength = maximum
        }
        self.network = network
    }

    func contains(_ address: NetworkAddress) -> Bool {
        guard address.bytes.count == network.bytes.count else { return false }
        var bits = prefixLength
        for (mine, theirs) in zip(network.bytes, address.bytes) where bits > 0 {
            let mask: UInt8 = bits >= 8 ? 0xff : ~(0xff >> UInt8(bits))
            if mine & mask != theirs & mask { return false }
            bits -= 8
        }
        return true
    }

    var description: String { "\(network.text)/\(prefixLength)" }
}
