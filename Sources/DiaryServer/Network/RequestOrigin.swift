import Foundation
import Hummingbird

/// Where a request came from as far as the server can believe: what trusted proxies said about
/// it (`X-Forwarded-For`, `-Proto`, `-Host`), worked out once by `HostCheckMiddleware`. Empty
/// when the request came straight from its client, or from anyone not trusted.
struct RequestOrigin: Sendable {
    /// Whether the request came through a trusted proxy (whatever it said about it).
    var throughProxy = false
    /// The client's address behind the proxies, when a trusted proxy said.
    var forwardedClient: String?
    /// The host the client asked for, when a trusted proxy said.
    var forwardedHost: String?
    /// Whether the client used HTTPS to reach the proxy.
    var https = false

    /// Reads what the proxies said. Of `-Proto` and `-Host` the right-most value counts: the one
    /// the nearest proxy (trusted) wrote, should a proxy append to what its client sent.
    init(forwardedBy proxies: TrustedProxies, headers: HTTPFields) {
        throughProxy = true
        forwardedClient = proxies.client(forwardedFor: headers[values: .xForwardedFor])
        forwardedHost = Self.lastValue(headers[values: .xForwardedHost])
        https = Self.lastValue(headers[values: .xForwardedProto])?.lowercased() == "https"
    }

    init() {}

    /// The client's address, given the peer's (see `DiaryRequestContext.clientAddress`).
    func clientAddress(peer: String?) -> String {
        forwardedClient ?? peer ?? "unknown"
    }

    /// Whether the client is on this computer, given the peer's address (see
    /// `DiaryRequestContext.clientIsLoopback`).
    func clientIsLoopback(peer: NetworkAddress?) -> Bool {
        if throughProxy { return forwardedClient.flatMap { NetworkAddress($0) }?.isLoopback == true }
        return peer?.isLoopback == true
    }

    private static func lastValue(_ values: [String]) -> String? {
        guard let last = values.last?.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty else { return nil }
        return last
    }
}
