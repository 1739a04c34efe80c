import DiaryCore
import Foundation
import PostgresNIO

/// Why PostgreSQL could not do what was asked, in words its operator can act on. The
/// description may name the server and the database (never a password); a client of the
/// server is told only `kind.messageForClients`.
public struct PostgresFailure: StorageFailure, Equatable {
    public let kind: StorageFailureKind
    public let description: String

    public init(kind: StorageFailureKind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// SQLSTATEs after which the whole transaction is simply run again.
    static let retried: Set<String> = ["40001", "40P01"]

    /// The SQLSTATE of a server's error, if it is one.
    static func state(of error: any Error) -> String? {
        (unwrapped(error) as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// The error that ended a transaction, out of postgres-nio's `PostgresTransactionError`:
    /// the work's own (rolled back: a ROLLBACK fails only on a connection already lost), or else
    /// COMMIT's (a serialization failure, a lost connection), or else BEGIN's.
    static func unwrapped(_ error: any Error) -> any Error {
        guard let error = error as? PostgresTransactionError else { return error }
        return error.closureError ?? error.commitError ?? error.beginError ?? error
    }

    /// The diary's words for an error of PostgreSQL or of reaching it; other errors unchanged.
    static func translating(_ error: any Error, at address: PostgresAddress) -> any Error {
        let error = unwrapped(error)
        if error is PostgresFailure || error is CancellationError { return error }
        // The pool's own error (its module is not public): no connection could be made for a while.
        if String(reflecting: type(of: error)).hasSuffix("ConnectionPoolError") {
            // A request cancelled while it waited (its client left) is not an outage.
            if Task.isCancelled { return CancellationError() }
            return unreachable(address, "no connection could be made for a while")
        }
        guard let error = error as? PSQLError else { return error }
        if let state = error.serverInfo?[.sqlState] {
            let message = error.serverInfo?[.message] ?? "no message"
            switch state {
            case "28P01", "28000":
                return PostgresFailure(kind: .unavailable, "PostgreSQL at \(address.description) refused to let \(address.user) in (\(message)): check the user and the password (--database-password-file, PGPASSWORD or PGPASSFILE).")
            case "3D000":
                return PostgresFailure(kind: .unavailable, "The database \(address.database) does not exist on PostgreSQL at \(address.description): create it (createdb \(address.database)) or name another in the URL.")
            case "42501":
                return PostgresFailure(kind: .unavailable, "PostgreSQL at \(address.description) does not let \(address.user) do this (\(message)): grant the user the rights on the database.")
            case "53100":
                return PostgresFailure(kind: .full, "PostgreSQL at \(address.description) has no room left (\(message)): this change was not saved.")
            case "25006":
                return PostgresFailure(kind: .readOnly, "PostgreSQL at \(address.description) takes no writes (\(message)): is it a read-only replica?")
            case "40001", "40P01", "55P03":
                return PostgresFailure(kind: .busy, "PostgreSQL at \(address.description) kept refusing this write as it raced others (\(message)).")
            case "57P01", "57P02", "57P03", "08000", "08003", "08006", "08001", "08004", "53300":
                return unreachable(address, message)
            case "23503" where message == "photo_not_stored":
                // The trigger of migration v9-photos-held: the photo went before the entry was written.
                return EntryError.photoNotStored(error.serverInfo?[.detail] ?? "")
            default:
                return error
            }
        }
        let underlying = error.underlying.map { "\($0)" } ?? "\(error.code)"
        switch error.code {
        case .connectionError where underlying.contains("SSL") || underlying.contains("certificate"):
            return PostgresFailure(kind: .unavailable, "PostgreSQL at \(address.description) did not show a certificate that sslmode=\(address.tls.rawValue) accepts (\(underlying)): name the authority that signed it with sslrootcert=FILE in the URL, and reach the server by a name its certificate holds.")
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
            return unreachable(address, underlying)
        case .authMechanismRequiresPassword:
            return PostgresFailure(kind: .unavailable, "PostgreSQL at \(address.description) asks for \(address.user)'s password, and none was given: use --database-password-file, PGPASSWORD or a password file (PGPASSFILE, ~/.pgpass).")
        case .queryCancelled:
            return CancellationError()
        case .sslUnsupported:
            return PostgresFailure(kind: .unavailable, "PostgreSQL at \(address.description) does not offer TLS, which sslmode=\(address.tls.rawValue) asks for: turn ssl on in the server, or choose another sslmode.")
        case .failedToAddSSLHandler:
            return PostgresFailure(kind: .unavailable, "Cannot set up TLS to PostgreSQL at \(address.description): \(error.underlying.map { "\($0)" } ?? "unknown reason").")
        default:
            return PostgresFailure(kind: .unavailable, "PostgreSQL at \(address.description) failed (\(error.code)).")
        }
    }

    static func unreachable(_ address: PostgresAddress, _ why: String) -> PostgresFailure {
        PostgresFailure(kind: .unavailable, "Cannot reach PostgreSQL at \(address.description) (\(why)): check that it is running and that the URL is right.")
    }
}
