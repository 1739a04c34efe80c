import DiaryCore
import Foundation
import PostgresNIO

/// The statements every autosave runs, prepared: postgres-nio prepares each once on a
/// connection and runs it by name after, so PostgreSQL parses and plans it once rather than at
/// every save (its parser and planner were most of its work per statement). Every column is
/// written (to what it was, when it did not change) so that one statement serves every save;
/// the text and its words only when the text changed, so the search index is left alone
/// otherwise.
enum PreparedEntryStatements {
    /// The entry with this id in this diary.
    struct Fetch: PostgresPreparedStatement {
        static let sql = "SELECT \(PostgresEntryRow.columns) FROM entry WHERE owner_id = $1 AND id = $2"
        static let bindingDataTypes: [PostgresDataType] = [.int8, .text]
        typealias Row = PostgresEntryRow

        var owner: UserID
        var id: UUID

        func makeBindings() throws -> PostgresBindings {
            var binds = PostgresBindings()
            binds.append(owner.rawValue)
            binds.append(id.diaryString)
            return binds
        }

        func decodeRow(_ row: PostgresRow) throws -> PostgresEntryRow { try PostgresEntryRow(row) }
    }

    /// The columns besides the text, in the order both rewrites bind them.
    static let otherColumns: [(name: String, type: PostgresDataType)] = [
        ("updated_at", .int8), ("created_at", .int8), ("deleted_at", .int8), ("latitude", .float8), ("longitude", .float8),
        ("weather_provider", .bytea), ("weather_condition", .text), ("weather_description", .bytea),
        ("weather_is_day", .bool), ("weather_temperature", .float8), ("version", .int8),
        ("tags", .textArray), ("tag_keys", .textArray), ("starred", .bool), ("photos", .text), ("time_zone", .text),
    ]
    static let textColumns: [(name: String, type: PostgresDataType)] = [
        ("title", .bytea), ("body", .bytea), ("words", .text), ("title_words", .int4), ("body_words", .int4),
        ("word_count", .int4),
    ]

    /// `UPDATE entry SET` the columns, while the row has the version read, counting the change.
    static func rewriteSQL(_ columns: [(name: String, type: PostgresDataType)]) -> String {
        let sets = columns.enumerated().map { index, column in
            "\(column.name) = $\(index + 1)\(column.name == "words" ? "::tsvector" : "")"
        }
        let n = columns.count
        return ChangeCount.counting(
            "UPDATE entry SET \(sets.joined(separator: ", ")) WHERE seq = $\(n + 1) AND version = $\(n + 2) RETURNING seq",
            owner: "$\(n + 3)")
    }

    static func rewriteTypes(_ columns: [(name: String, type: PostgresDataType)]) -> [PostgresDataType] {
        columns.map(\.type) + [.int8, .int8, .int8]
    }

    /// Binds the columns besides the text, then which row, at which version, in whose diary.
    static func bindOthers(_ entry: Entry, row: PostgresEntryRow, owner: UserID, to binds: inout PostgresBindings) {
        binds.append(entry.updatedAt.millisecondsSince1970)
        binds.append(entry.createdAt.millisecondsSince1970)
        binds.append(entry.deletedAt?.millisecondsSince1970)
        binds.append(entry.location?.latitude)
        binds.append(entry.location?.longitude)
        binds.append(entry.weather.map { ByteBuffer(string: $0.provider) })
        binds.append(entry.weather?.condition.rawValue)
        binds.append(entry.weather.map { ByteBuffer(string: $0.description) })
        binds.append(entry.weather?.isDay)
        binds.append(entry.weather?.temperatureCelsius)
        binds.append(Int64(entry.version))
        binds.append(entry.tags)
        binds.append(entry.tags.map(Tags.key))
        binds.append(entry.starred)
        binds.append(entry.photos.storedText)
        binds.append(entry.timeZone)
        binds.append(row.sequence)
        binds.append(Int64(row.entry.version))
        binds.append(owner.rawValue)
    }

    /// A save whose text changed: the text, its words, and every other column.
    struct RewriteWithText: PostgresPreparedStatement {
        static let sql = rewriteSQL(textColumns + otherColumns)
        static let bindingDataTypes = rewriteTypes(textColumns + otherColumns)
        typealias Row = Int64

        var row: PostgresEntryRow
        var entry: Entry
        var owner: UserID

        func makeBindings() throws -> PostgresBindings {
            let words = SearchVector.of(title: entry.title, body: entry.body)
            var binds = PostgresBindings()
            binds.append(ByteBuffer(string: entry.title))
            binds.append(ByteBuffer(string: entry.body))
            binds.append(words.vector)
            binds.append(Int32(clamping: words.titleWords))
            binds.append(Int32(clamping: words.bodyWords))
            binds.append(Int32(clamping: entry.wordCount))
            bindOthers(entry, row: row, owner: owner, to: &binds)
            return binds
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    /// A save whose text is the same (trashed, restored, its weather added): the text and its
    /// words are left as they are.
    struct RewriteKeepingText: PostgresPreparedStatement {
        static let sql = rewriteSQL(otherColumns)
        static let bindingDataTypes = rewriteTypes(otherColumns)
        typealias Row = Int64

        var row: PostgresEntryRow
        var entry: Entry
        var owner: UserID

        func makeBindings() throws -> PostgresBindings {
            var binds = PostgresBindings()
            bindOthers(entry, row: row, owner: owner, to: &binds)
            return binds
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }
}
