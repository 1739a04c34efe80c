import Crypto
import Foundation

/// A signed-in device as its writer sees it: never the session's token or its hash.
public struct SessionInfo: Sendable, Equatable {
    /// An opaque name for the session (see `Accounts.sessionID`), to sign it out by.
    public var id: String
    public var label: String
    public var createdAt: Date
    public var lastUsedAt: Date
}

/// An access token as its writer sees it, with an opaque id to revoke it by.
public struct TokenInfo: Sendable, Equatable {
    public var id: String
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?
}

extension Accounts {
    /// The name a client uses for a session: derived from its token's hash, one way, so it tells
    /// nothing of the token (it is not a secret, and knowing it logs no one in), and needs no
    /// column of its own. 128 bits, in hex.
    public static func sessionID(tokenHash: String) -> String {
        shortHash("session " + tokenHash)
    }

    /// The id of the session whose cookie holds `token`.
    public static func sessionID(token: String) -> String {
        sessionID(tokenHash: SecretToken.hash(token))
    }

    /// The name a client uses for an access token: derived from its name (unique per user),
    /// so a name with any letters in it never has to travel in a path.
    public static func tokenID(name: String) -> String {
        shortHash("token " + name)
    }

    private static func shortHash(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).prefix(16).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }

    /// The live sessions of `user`, the most recently used first (those unused for 30 days have
    /// ended, and are not listed).
    public func sessions(of user: User, now: Date = Date()) async throws -> [SessionInfo] {
        try await rows.sessions(of: user.id)
            .filter { now.timeIntervalSince($0.lastUsedAt) <= Self.sessionLifetime }
            .sorted { ($0.lastUsedAt, $0.createdAt) > ($1.lastUsedAt, $1.createdAt) }
            .map { SessionInfo(id: Self.sessionID(tokenHash: $0.tokenHash), label: $0.label, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt) }
    }

    /// Ends `user`'s session named `id`; `false` when `user` has none of that name (another
    /// user's is none of theirs).
    public func endSession(id: String, of user: User) async throws -> Bool {
        guard let row = try await rows.sessions(of: user.id).first(where: { Self.sessionID(tokenHash: $0.tokenHash) == id }) else {
            return false
        }
        try await rows.deleteSession(tokenHash: row.tokenHash)
        return true
    }

    /// `user`'s access tokens with their ids, ordered by name.
    public func tokenInfos(of user: User) async throws -> [TokenInfo] {
        try await rows.tokens(of: user.id).map { TokenInfo(id: Self.tokenID(name: $0.name), name: $0.name, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt) }
    }

    /// Revokes `user`'s token named by `id`; `false` when there is none.
    public func revokeToken(id: String, of user: User) async throws -> Bool {
        guard let token = try await rows.tokens(of: user.id).first(where: { Self.tokenID(name: $0.name) == id }) else { return false }
        return try await rows.deleteToken(named: token.name, of: user.id)
    }
}
