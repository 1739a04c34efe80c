/// The names a request's `Host` may carry: the server answers only for those.
///
/// A web page on another site can make a browser send requests to `127.0.0.1:8080` by giving
/// its own name a DNS answer of 127.0.0.1 once loaded (DNS rebinding); the browser then counts
/// the diary as that site's own. Such requests still carry the other site's name in `Host`, so
/// answering only for known names closes the door (as Django's `ALLOWED_HOSTS` does).
///
/// Names are compared without case, without a final dot and without a port: `localhost:9000`
/// reached through an SSH tunnel or a container's published port is still this diary.
public struct ServedHosts: Sendable {
    private let names: Set<String>

    /// Loopback's names, which a browser on this computer uses.
    static let loopback = ["localhost", "127.0.0.1", "[::1]"]

    /// Loopback's names, the address the server listens on when it is one, and `hostNames`
    /// (those that are names: `check(hostNames:)` says which are not).
    public init(listeningOn host: String, hostNames: [String]) {
        var names = Set(Self.loopback)
        if let address = NetworkAddress(host), !address.bytes.allSatisfy({ $0 == 0 }) {
            names.insert(address.bytes.count == 16 ? "[\(address.text)]" : address.text)
        }
        names.formUnion(hostNames.compactMap(Self.served))
        self.names = names
    }

    /// Throws a sentence naming the first of `hostNames` that is not a name or an address
    /// (a path, a space, a scheme).
    public static func check(hostNames: [String]) throws(NetworkSettingError) {
        for given in hostNames where served(given) == nil {
            throw NetworkSettingError("\"\(given)\" is not a host name or an address: give a name such as diary.example.com or an address such as 192.168.1.20, without http:// or a path.")
        }
    }

    /// A name given with `--host-name` as requests carry it; an IPv6 address gets its brackets.
    private static func served(_ given: String) -> String? {
        if let address = NetworkAddress(given), address.bytes.count == 16 { return "[\(address.text)]" }
        return name(in: given)
    }

    /// Whether `host` is a wildcard address (0.0.0.0, ::): the server listens on all of the
    /// computer's addresses, and answers only for the names it is given.
    public static func isWildcard(_ host: String) -> Bool {
        NetworkAddress(host)?.bytes.allSatisfy { $0 == 0 } == true
    }

    /// `given` (a name or an address) as a URL's host: an IPv6 address in brackets, a name
    /// without a port. `nil` if it is neither.
    public static func urlHost(_ given: String) -> String? {
        served(given)
    }

    /// Whether the server listens where only this computer can reach it: then the loopback
    /// names are all anyone can use, and no `--host-name` is needed.
    public static func isLoopback(_ host: String) -> Bool {
        host.lowercased() == "localhost" || NetworkAddress(host)?.isLoopback == true
    }

    /// Whether a request whose `Host` (or trusted `X-Forwarded-Host`) is `authority` is ours.
    func serves(_ authority: String) -> Bool {
        if names.contains(authority) { return true }
        guard let name = Self.name(in: authority) else { return false }
        return names.contains(name)
    }

    /// The host of `authority` as compared: lower case, no final dot, an IPv6 address in
    /// brackets; without its port, which must be digits. `nil` if it is not a host.
    static func name(in authority: String) -> String? {
        var host = authority[...]
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || Self.isPort(rest), let address = NetworkAddress(host[host.index(after: host.startIndex)..<close]),
                  address.bytes.count == 16
            else { return nil }
            return "[\(address.text)]"
        }
        if let colon = host.firstIndex(of: ":") {
            guard Self.isPort(host[colon...]) else { return nil }
            host = host[..<colon]
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        guard !host.isEmpty, host.utf8.count <= 253,
              host.utf8.allSatisfy({ $0.isHostCharacter })
        else { return nil }
        return host.lowercased()
    }

    /// `:` and one to five digits.
    private static func isPort(_ text: Substring) -> Bool {
        text.first == ":" && (2...6).contains(text.utf8.count) && text.utf8.dropFirst().allSatisfy { (0x30...0x39).contains($0) }
    }
}

extension UInt8 {
    /// Letters, digits, `-`, `.` and `_` (which some local names carry).
    fileprivate var isHostCharacter: Bool {
        (0x61...0x7A).contains(self) || (0x41...0x5A).contains(self) || (0x30...0x39).contains(self)
            || self == 0x2D || self == 0x2E || self == 0x5F
    }
}
