import Foundation
import HummingbirdBcrypt
import NIOPosix

/// bcrypt, run on NIO's pool of threads for blocking work rather than on Swift's task pool.
///
/// A hash is meant to be slow: about a quarter of a second of CPU at cost 12. Swift's task pool
/// has one thread per core (two here) and every request's handler runs on it, so two logins at
/// once left no thread for any other request until both were hashed: autosaves and page loads
/// waited a quarter of a second behind them.
enum PasswordHashing {
    static func hash(_ password: String, cost: UInt8) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` is the one hashed in `hash`. With no hash (an unknown name), the same
    /// work is done against a password no one has, so timing does not tell whether a name exists.
    static func verify(_ password: String, hash: String?) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive {
            Bcrypt.verify(password, hash: hash ?? unknownUserHash) && hash != nil
        }
    }

    /// A real bcrypt hash at the default cost, made once, on first use.
    private static let unknownUserHash = Bcrypt.hash(UUID().uuidString, cost: 12)
}
