import DiaryCore
import Hummingbird
import NIOCore

/// Who is asking, as the server works it out for each request.
enum Identity: Sendable {
    /// A browser with a session cookie; its unsafe requests must carry the session's CSRF token.
    case session(Session, token: String)
    /// An API client with a personal access token (`Authorization: Bearer`): no ambient
    /// credential, so no CSRF check is needed.
    case accessToken(User)

    var user: User {
        switch self {
        case .session(let session, _): session.user
        case .accessToken(let user): user
        }
    }
}

/// The request context: Hummingbird's, plus who is asking and from where.
struct DiaryRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var identity: Identity?
    /// What trusted proxies said about the request (set by `HostCheckMiddleware`).
    var origin = RequestOrigin()
    private let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The address of whoever is on the other end of the connection: the client, or a proxy.
    /// Worked out only when asked (logins): formatting it for every request showed.
    var peerAddress: String? { channel.remoteAddress?.ipAddress }

    var peerNetworkAddress: NetworkAddress? { channel.remoteAddress.flatMap(NetworkAddress.init) }

    /// The client's address: the peer's, or behind trusted proxies the right-most address in
    /// `X-Forwarded-For` that is not one of them (see `TrustedProxies`). What login throttling
    /// and anything else that counts by address must use; never `X-Forwarded-For` itself.
    var clientAddress: String { origin.clientAddress(peer: peerAddress) }

    /// Whether the client is on this computer: a loopback peer that is not a trusted proxy, or
    /// behind trusted proxies a loopback client address. A request through a proxy that did not
    /// say who its client is counts as remote, so a proxy on this computer never makes the whole
    /// world local.
    var clientIsLoopback: Bool { origin.clientIsLoopback(peer: peerNetworkAddress) }

    /// The user, or a 401 that says to log in.
    func requireUser() throws -> User {
        guard let identity else { throw APIError.unauthenticated }
        return identity.user
    }
}
