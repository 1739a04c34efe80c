import DiaryCore
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Passwords hashed with bcrypt, run on NIO's pool of threads for blocking work rather than on
/// Swift's task pool.
///
/// A hash is meant to be slow: about a quarter of a second of CPU at cost 12. Swift's task pool
/// has one thread per core (two here) and every request's handler runs on it, so two logins at
/// once left no thread for any other request until both were hashed: autosaves and page loads
/// waited a quarter of a second behind them.
public struct BcryptPasswords: PasswordHasher {
    /// bcrypt's work factor: 12 unless tests lower it to keep suites fast.
    public let cost: UInt8

    public init(cost: UInt8 = 12) {
        self.cost = cost
    }

    public func hash(_ password: String) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { [cost] in Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, hash: String?) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive {
            Bcrypt.verify(password, hash: hash ?? Self.unknownUserHash) && hash != nil
        }
    }

    /// A real bcrypt hash at the default cost, made once, on first use.
    private static let unknownUserHash = Bcrypt.hash(UUID().uuidString, cost: 12)
}
