import Foundation
/// The proxies whose `X-Forwarded-For`, `-Proto` and `-Host` the server believes: those named
/// with `--trusted-proxy` (or `--trust-proxy`, loopback's). From anyone else those headers are
/// ignored, since any client can send them.
public struct TrustedProxies: Sendable, CustomStringConvertible {
    let ranges: [AddressRange]

    /// None: every forwarded header is ignored (the default).
    public static let none = TrustedProxies(ranges: [])
    /// A proxy on this computer (`--trust-proxy`): 127.0.0.0/8 and ::1.
    public static let loopback = TrustedProxies(ranges: [AddressRange("127.0.0.0/8")!, AddressRange("::1")!])

    init(ranges: [AddressRange]) {
        self.ranges = ranges
    }

    /// Each an address or a CIDR block; throws a sentence naming the first that is neither.
    public init(parsing texts: [String]) throws(NetworkSettingError) {
        var ranges: [AddressRange] = []
        for text in texts {
            guard let range = AddressRange(text) else {
                throw NetworkSettingError("\"\(text)\" is not an address or a range of addresses (such as 10.0.0.5, 10.0.0.0/8 or fd00::/8).")
            }
            ranges.append(range)
        }
        self.ranges = ranges
    }

    public var isEmpty: Bool { ranges.isEmpty }

    public func adding(_ other: TrustedProxies) -> TrustedProxies {
        TrustedProxies(ranges: ranges + other.ranges)
    }

    func trusts(_ address: NetworkAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The client behind the proxies: walking `X-Forwarded-For` from the right (each proxy adds
    /// the address it heard from at the end), the first address that is not a trusted proxy.
    /// Addresses further left were written by that client and prove nothing. `nil` if the header
    /// is empty; the left-most address if every one is a trusted proxy.
    func client(forwardedFor values: [String]) -> String? {
        let hops = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for hop in hops.reversed() {
            guard let address = NetworkAddress(forwarded: hop[...]) else {
                // Not an address (`unknown`, a proxy's obfuscated name): what this proxy knows.
                return String(hop.prefix(100))
            }
            if !trusts(address) { return address.text }
        }
        return hops.first.map { NetworkAddress(forwarded: $0[...])?.text ?? String($0.prefix(100)) }
    }

    public var description: String { ranges.map(\.description).joined(separator: ", ") }
}

/// A setting of `diary serve` that cannot be used, in a sentence that says why.
public struct NetworkSettingError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
