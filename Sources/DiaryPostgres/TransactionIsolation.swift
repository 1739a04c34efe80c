import PostgresNIO

/// How a transaction sees what others commit meanwhile (PostgreSQL's isolation levels), and
/// whether it may write: a value, never words spliced into SQL.
///
/// postgres-nio's `withTransaction` begins with a bare `BEGIN`, so a transaction that needs
/// another level says so in its first statement (`SET TRANSACTION`, which PostgreSQL takes only
/// there). The default, `readCommitted`, says nothing and costs no statement more: it is
/// PostgreSQL's default, and the level every statement run outside a transaction (most reads,
/// and the gathered saves) runs at anyway. A server whose `default_transaction_isolation` is set
/// higher gives its level to both alike, and refuses more races (40001): a transaction is then
/// run again (`PostgresDatabase.attempts`), a single statement reported busy. Not a startup parameter: PgBouncer,
/// which may stand in front in session mode, refuses parameters it does not know.
struct TransactionIsolation: Sendable, Equatable {
    /// PostgreSQL's isolation levels (READ UNCOMMITTED is READ COMMITTED there, so not offered).
    enum Level: Sendable, Equatable {
        /// Each statement sees what was committed before it began: the default, for writes that
        /// lock the rows they change.
        case readCommitted
        /// Every statement sees one snapshot, taken at the first: a consistent read of many tables.
        case repeatableRead
        /// As if the transactions had run one after another; PostgreSQL refuses (40001) what would not.
        case serializable
    }

    var level: Level
    /// Whether the transaction is refused every write (and, at `repeatableRead`, takes no locks
    /// that writers wait for).
    var readOnly: Bool

    init(_ level: Level, readOnly: Bool = false) {
        self.level = level
        self.readOnly = readOnly
    }

    /// PostgreSQL's default: each statement sees what was committed before it began.
    static let readCommitted = TransactionIsolation(.readCommitted)
    /// One snapshot of every table, whatever other instances write meanwhile: a whole copy.
    static let snapshot = TransactionIsolation(.repeatableRead, readOnly: true)

    /// The statement that makes a transaction begun by a bare `BEGIN` this one; nil for the
    /// default (`readCommitted`, read-write), which needs none. Whole literals, one per case.
    var statement: PostgresQuery? {
        switch (level, readOnly) {
        case (.readCommitted, false): nil
        case (.readCommitted, true): "SET TRANSACTION ISOLATION LEVEL READ COMMITTED, READ ONLY"
        case (.repeatableRead, false): "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ WRITE"
        case (.repeatableRead, true): "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"
        case (.serializable, false): "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ WRITE"
        case (.serializable, true): "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY"
        }
    }
}
