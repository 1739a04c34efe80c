import DiaryCore
import Foundation
import Logging
import NIOSSL
import PostgresNIO
import Synchronization

/// One PostgreSQL database through postgres-nio's pooled client: transactions that are run
/// again when PostgreSQL asks (a serialization failure, a deadlock), errors in the diary's
/// words, and no request waiting long for a connection while the server is away.
final class PostgresDatabase: Sendable {
    let pool: PostgresPool
    /// What PostgreSQL tells of each write, heard on a connection of its own (while a server runs it).
    let feed: ChangeFeed
    /// The changes of entries waiting to be run together.
    let changes = ChangeGatherer()
    /// Merges the search index's new words in the background (while a server runs it).
    let searchIndexUpkeep = SearchIndexUpkeep()
    let address: PostgresAddress
    let logger: Logger

    /// How long a request that waits with a watch of its own (an idle server, an outage: see
    /// `leasing`) waits for a connection before it is told that PostgreSQL cannot be reached.
    static let connectionWait: Duration = .seconds(5)
    /// How long a request waits for a connection before the pool is checked.
    static let suspectAfter: Duration = .seconds(1)
    /// How many times a transaction is run when PostgreSQL keeps asking for it again.
    static let attempts = 5

    init(address: PostgresAddress, logger: Logger) throws {
        var configuration: PostgresClient.Configuration
        if let folder = address.socketFolder {
            configuration = .init(unixSocketPath: folder + "/.s.PGSQL.\(address.port)", username: address.user,
                                  password: address.password, database: address.database)
        } else {
            configuration = .init(host: address.host, port: address.port, username: address.user, password: address.password,
                                  database: address.database, tls: try Self.tls(for: address))
        }
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.maximumConnections = 16
        configuration.options.additionalStartupParameters = [("application_name", "diary")]
        self.pool = PostgresPool(logger: logger, probe: { [address, logger] in
            do {
                try await Self.connecting(to: address, logger: logger).close()
                return .reached
            } catch let error as PSQLError where PostgresFailure.state(of: error) == "53300" {
                return .refused  // it answered, full: too many connections
            } catch {
                return .away
            }
        }, makeClient: { [configuration] in
            PostgresClient(configuration: configuration, backgroundLogger: logger)
        })
        self.feed = ChangeFeed(logger: logger) { [address, logger] in
            try await Self.connecting(to: address, logger: logger)
        }
        self.address = address
        self.logger = logger
    }

    /// A dedicated connection, outside the pool (migrations run on one before the pool runs).
    func connect() async throws -> PostgresConnection {
        try await Self.connect(to: address, logger: logger)
    }

    private static func connect(to address: PostgresAddress, logger: Logger) async throws -> PostgresConnection {
        do {
            return try await connecting(to: address, logger: logger)
        } catch {
            throw PostgresFailure.translating(error, at: address)
        }
    }

    /// A connection, or postgres-nio's own error.
    private static func connecting(to address: PostgresAddress, logger: Logger) async throws -> PostgresConnection {
        var configuration: PostgresConnection.Configuration
        if let folder = address.socketFolder {
            configuration = .init(unixSocketPath: folder + "/.s.PGSQL.\(address.port)", username: address.user,
                                  password: address.password, database: address.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            switch address.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: tlsConfiguration(for: address)))
            case .require, .verifyCA, .verifyFull: tls = .require(try NIOSSLContext(configuration: tlsConfiguration(for: address)))
            }
            configuration = .init(host: address.host, port: address.port, username: address.user, password: address.password,
                                  database: address.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(5)
        return try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
    }

    static func tls(for address: PostgresAddress) throws -> PostgresClient.Configuration.TLS {
        switch address.tls {
        case .disable: .disable
        case .prefer: .prefer(try tlsConfiguration(for: address))
        case .require, .verifyCA, .verifyFull: .require(try tlsConfiguration(for: address))
        }
    }

    /// libpq's meaning of each `sslmode`: `require` checks the certificate only when told which
    /// authorities to trust; `verify-full` checks the host name too.
    static func tlsConfiguration(for address: PostgresAddress) throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let roots = address.rootCertificates {
            guard FileManager.default.isReadableFile(atPath: roots) else {
                throw PostgresFailure(kind: .unavailable, "Cannot read the certificate authorities in \(roots) (sslrootcert): check the path.")
            }
            tls.trustRoots = .file(roots)
        }
        switch address.tls {
        case .disable, .prefer: tls.certificateVerification = .none
        case .require: tls.certificateVerification = address.rootCertificates == nil ? .none : .noHostnameVerification
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        return tls
    }

    // The two ways in, named as postgres-nio's `PostgresClient` names them. They are not that
    // client's own methods: `pool` is made anew when postgres-nio's pool does not recover by
    // itself (see `PostgresPool`), and a request waits with a watch of its own (`leasing`), so
    // each lease goes through `PostgresPool.lease` to the client of the moment. The transaction
    // itself is postgres-nio's (`PostgresConnection.withTransaction`: BEGIN, then COMMIT, or
    // ROLLBACK when `work` throws, a cancelled request's `CancellationError` included); around
    // it, a transaction PostgreSQL asks for again is run again, and errors come out in the
    // diary's words (`PostgresFailure.translating`, which unwraps postgres-nio's
    // `PostgresTransactionError`).

    /// Runs `work` on a pooled connection, outside a transaction (each statement its own).
    @discardableResult
    func withConnection<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await leasing { connection in try await work(connection) }
        } catch {
            throw PostgresFailure.translating(error, at: address)
        }
    }

    /// Runs `work` in one transaction, committed when it returns and rolled back when it throws
    /// (its own error comes out unchanged). Run again, whole, when PostgreSQL reports a
    /// serialization failure or a deadlock.
    func withTransaction<T: Sendable>(
        isolation: TransactionIsolation = .readCommitted,
        _ work: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await leasing { [logger] connection in
                    try await connection.withTransaction(logger: logger) { connection in
                        if let statement = isolation.statement { try await connection.query(statement, logger: logger) }
                        return try await work(connection)
                    }
                }
            } catch {
                if let state = PostgresFailure.state(of: error), PostgresFailure.retried.contains(state), attempt < Self.attempts {
                    attempt += 1
                    try await Task.sleep(for: .milliseconds(Int.random(in: 1...(10 * attempt))))
                    continue
                }
                throw PostgresFailure.translating(error, at: address)
            }
        }
    }

    /// A pooled connection for `work`, or `PostgresFailure.unreachable` when PostgreSQL is found
    /// away or, waiting with a watch, no connection comes within `connectionWait`. Under load a
    /// request waits its turn like any other (busy is not away). A request that finds no
    /// connection tells the pool, which makes itself anew if it is stuck; one that waited on a
    /// pool made anew meanwhile, its work not begun, waits on the new one.
    private func leasing<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        if pool.isAway {
            pool.missed()
            throw PostgresFailure.unreachable(address, "the last attempt to connect failed")
        }
        while true {
            let current = pool.current
            let ticket = Ticket()
            do {
                if pool.isBusyAndWell {
                    // The common case under load: connections come and go, so a request waits
                    // its turn without a watch of its own (which costs two tasks a request); the
                    // pool's watch sees if they stop coming.
                    return try await pool.lease(from: current, ticket, work)
                }
                return try await watchedLease(from: current, ticket, since: started, work)
            } catch let error where !ticket.served && !Task.isCancelled && pool.current.generation != current.generation
                        && ContinuousClock.now - started < Self.connectionWait && !(error is PostgresFailure) {
                continue
            } catch let error where Self.foundNoConnection(error) {
                pool.missed()
                throw error is PoolRenewed ? PostgresFailure.unreachable(address, "no connection within \(Self.connectionWait)") : error
            }
        }
    }

    /// Whether `error` says no connection was had (rather than one a statement failed on).
    private static func foundNoConnection(_ error: any Error) -> Bool {
        let error = PostgresFailure.unwrapped(error)
        if error is CancellationError || Task.isCancelled { return false }
        if error is PoolRenewed { return true }
        if let error = error as? PostgresFailure { return error.kind == .unavailable }
        if let error = error as? PSQLError { return error.serverInfo == nil }
        return String(reflecting: type(of: error)).hasSuffix("ConnectionPoolError")
    }

    /// `work` on a connection of `pool`; while it waits for one, a watch (woken four times a
    /// second, and only while waiting) has the pool checked after a second, and gives the wait
    /// up when the pool is made anew (`PoolRenewed`), when PostgreSQL is found away, or at
    /// `connectionWait` after `started`. A wait given up never runs its work.
    private func watchedLease<T: Sendable>(
        from current: PostgresPool.Current, _ ticket: Ticket, since started: ContinuousClock.Instant,
        _ work: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { [pool] in
                try await pool.lease(from: current, ticket, work)
            }
            group.addTask { [self] in
                while true {
                    try await Task.sleep(for: .milliseconds(250))
                    if ticket.served { return nil }
                    let waited = ContinuousClock.now - started
                    let reason: (any Error)?
                    if waited >= Self.connectionWait {
                        reason = PostgresFailure.unreachable(address, "no connection within \(Self.connectionWait)")
                    } else if pool.current.generation != current.generation {
                        reason = PoolRenewed()
                    } else if waited >= Self.suspectAfter && pool.isAway {
                        reason = PostgresFailure.unreachable(address, "the last attempt to connect failed")
                    } else {
                        reason = nil
                        if waited >= Self.suspectAfter { pool.missed() }
                    }
                    if let reason {
                        guard pool.giveUp(ticket) else { return nil }  // served just now: its work goes on
                        throw reason
                    }
                }
            }
            while let result = try await group.next() {
                if let result {
                    group.cancelAll()
                    return result
                }
            }
            throw CancellationError()
        }
    }
}
