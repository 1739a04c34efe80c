import Foundation
import GRDB
import GRDBSQLite

/// The values of a result row, read by position: a GRDB `Row`, or a `SingleRow` read straight
/// from SQLite. Code that makes entries and users from rows is written once against this.
protocol ColumnValues {
    func integer(_ column: Int) -> Int64
    func optionalInteger(_ column: Int) -> Int64?
    func optionalDouble(_ column: Int) -> Double?
    func text(_ column: Int) -> String
    func optionalText(_ column: Int) -> String?
}

extension Row: ColumnValues {
    func integer(_ column: Int) -> Int64 { self[column] }
    func optionalInteger(_ column: Int) -> Int64? { self[column] }
    func optionalDouble(_ column: Int) -> Double? { self[column] }

    /// The text's every byte: GRDB reads text as a C string, which ends at the first NUL, and a
    /// writer's text may hold one. Exact only on rows read from a cursor, which read straight
    /// from the statement; a copied row (`fetchAll`, `fetchOne`) has already lost what follows
    /// a NUL, so entries' words are never read through one.
    func text(_ column: Int) -> String {
        (try? withUnsafeData(atIndex: column) { data in data.map { String(decoding: $0, as: UTF8.self) } }) ?? ""
    }

    func optionalText(_ column: Int) -> String? {
        hasNull(atIndex: column) ? nil : text(column)
    }
}

/// Text bound as an argument, every byte of it.
///
/// GRDB binds a string as a C string, which ends at its first NUL: "a\0b" was stored as "a",
/// and the writer told it was saved. A string with a NUL is bound as its UTF-8 bytes instead,
/// and the statement says `CAST(? AS TEXT)`, which makes those bytes text again, NUL and all.
/// Strings without one (nearly all) are bound as they are.
enum ExactText {
    static func argument(_ text: String) -> any DatabaseValueConvertible {
        text.utf8.contains(0) ? Data(text.utf8) : text
    }
}

/// The current row of a statement, read through SQLite's C interface.
///
/// For the lookups every request makes (whose token this is, the diary's change count, one
/// entry), GRDB's `Row.fetchOne` cost several times SQLite's own work: a cursor, a copy of the
/// row, each value decoded through generic code, the arguments boxed. Valid only inside
/// `Statement.readFirstRow`'s closure.
struct SingleRow: ColumnValues {
    fileprivate let statement: SQLiteStatement

    func integer(_ column: Int) -> Int64 { sqlite3_column_int64(statement, Int32(column)) }

    func optionalInteger(_ column: Int) -> Int64? {
        isNull(column) ? nil : sqlite3_column_int64(statement, Int32(column))
    }

    func optionalDouble(_ column: Int) -> Double? {
        isNull(column) ? nil : sqlite3_column_double(statement, Int32(column))
    }

    func text(_ column: Int) -> String {
        guard let bytes = sqlite3_column_text(statement, Int32(column)) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalText(_ column: Int) -> String? {
        isNull(column) ? nil : text(column)
    }

    private func isNull(_ column: Int) -> Bool {
        sqlite3_column_type(statement, Int32(column)) == SQLITE_NULL
    }
}

/// An argument of `Statement.readFirstRow`.
enum SQLArgument {
    case text(String)
    case integer(Int64)
}

extension Statement {
    /// Runs this statement with `arguments` and reads its first row with `read`: nil when it
    /// has none. The statement is reset before this returns, so it holds no read open.
    func readFirstRow<T>(_ arguments: [SQLArgument], _ read: (SingleRow) throws -> T) throws -> T? {
        let statement = sqliteStatement
        sqlite3_reset(statement)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, argument) in zip(Int32(1)..., arguments) {
            let code = switch argument {
            case .text(let text): sqlite3_bind_text(statement, index, text, -1, Self.copied)
            case .integer(let integer): sqlite3_bind_int64(statement, index, integer)
            }
            guard code == SQLITE_OK else { throw error(code) }
        }
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return try read(SingleRow(statement: statement))
        case SQLITE_DONE: return nil
        case let code: throw error(code)
        }
    }

    private func error(_ code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code),
                      message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))), sql: sql)
    }

    /// SQLITE_TRANSIENT: SQLite copies the bound text (the Swift string's C form is temporary).
    private static var copied: sqlite3_destructor_type {
        unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    }
}
