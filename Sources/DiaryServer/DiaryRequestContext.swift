import DiaryCore
import DiaryStore
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
    private let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The peer's address; behind a trusted proxy the first X-Forwarded-For address is used
    /// instead. Worked out only when asked (logins): formatting it for every request showed.
    var peerAddress: String? { channel.remoteAddress?.ipAddress }

    /// The user, or a 401 that says to log in.
    func requireUser() throws -> User {
        guard let identity else { throw APIError.unauthenticated }
        return identity.user
    }
}
