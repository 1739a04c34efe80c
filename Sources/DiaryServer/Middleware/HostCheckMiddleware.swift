import HTTPTypes
import Hummingbird

/// Answers only requests for a host the server serves (see `ServedHosts`), on every path: the
/// web app's files as well as the API. First, when the request came from a trusted proxy, it
/// reads what that proxy said about it into `context.origin`, so that the client's address and
/// the public origin are worked out in this one place; then the host checked is the one the
/// proxy says the client asked for.
///
/// An unknown host is `421 Misdirected Request`: RFC 9110 has it for a server that will not
/// answer for the address asked, and it tells the client that resending the same request here
/// will not help. A missing `Host` is `400`, as RFC 9112 requires for HTTP/1.1 (HTTP/1.0 clients
/// that send none are refused too: every browser sends one, and without it there is nothing to
/// check). A target in absolute form (`GET http://name/path`) is read by NIO with the `Host`
/// header's name, never its own, so `Host` is all there is to check.
struct HostCheckMiddleware: RouterMiddleware {
    typealias Context = DiaryRequestContext
    let hosts: ServedHosts
    let proxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        // Without trusted proxies (the default) the peer is not looked at: formatting its address
        // for every request showed in profiles. With them, its bytes are compared, not its text.
        if !proxies.isEmpty, let peer = context.peerNetworkAddress, proxies.trusts(peer) {
            context.origin = RequestOrigin(forwardedBy: proxies, headers: request.headers)
        }
        // A second Host line is a 400 too (RFC 9112 §3.2): which one counts would be a guess.
        guard let host = context.origin.forwardedHost ?? request.head.authority, !host.isEmpty,
              !request.headers.contains(.secondHost)
        else {
            return try APIError.missingHost.response(from: request, context: context)
        }
        guard hosts.serves(host) else {
            return try APIError.unknownHost(host).response(from: request, context: context)
        }
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    /// Only ever a second Host line: NIO takes the first as the request's authority.
    static let secondHost = Self("Host")!
}

extension APIError {
    static let missingHost = APIError(status: .badRequest, code: .missingHost,
                                      message: "The request needs one Host header, with the address of the diary, as every browser sends.")

    static func unknownHost(_ host: String) -> APIError {
        let shown = host.count > 100 ? host.prefix(100) + "…" : host[...]
        return APIError(status: .misdirectedRequest, code: .unknownHost,
                        message: "This diary does not answer to the name \(shown). If that is its address, start `diary serve` with --host-name and that name.")
    }
}
