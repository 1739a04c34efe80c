import DiaryCore
import Foundation
import Logging
import PostgresNIO

/// An entry as a row of PostgreSQL's `entry` table, and the statements that write one.
/// Text goes in and out as UTF-8 bytes (`bytea`), so it comes back exactly as written.
struct PostgresEntryRow: Sendable {
    var sequence: Int64
    var entry: Entry

    /// Every query reads these columns in this order (see `decode`).
    static let columns = """
        seq, id, title, body, created_at, updated_at, version, deleted_at, latitude, longitude,
        weather_provider, weather_condition, weather_description, weather_is_day, weather_temperature, tags, starred, photos, time_zone
        """

    typealias Columns = (Int64, String, ByteBuffer, ByteBuffer, Int64, Int64, Int64, Int64?, Double?, Double?,
                         ByteBuffer?, String?, ByteBuffer?, Bool?, Double?, [String], Bool, String, String?)

    init(_ row: PostgresRow) throws {
        self.init(try row.decode(Columns.self))
    }

    /// A row of `owner_id, ` + `columns`: whose entry it is, and the entry.
    static func owned(_ row: PostgresRow) throws -> (UserID, PostgresEntryRow) {
        let (owner, sequence, id, title, body, created, updated, version, deleted, latitude, longitude,
             provider, condition, description, isDay, temperature, tags, starred, photos, zone) = try row.decode(
                (Int64, Int64, String, ByteBuffer, ByteBuffer, Int64, Int64, Int64, Int64?, Double?, Double?,
                 ByteBuffer?, String?, ByteBuffer?, Bool?, Double?, [String], Bool, String, String?).self)
        return (UserID(rawValue: owner), PostgresEntryRow((sequence, id, title, body, created, updated, version, deleted, latitude,
                                                           longitude, provider, condition, description, isDay, temperature,
                                                           tags, starred, photos, zone)))
    }

    init(_ columns: Columns) {
        let (sequence, id, title, body, created, updated, version, deleted, latitude, longitude,
             provider, condition, description, isDay, temperature, tags, starred, photos, zone) = columns
        self.sequence = sequence
        var weather: Weather?
        if let provider, let condition = condition.flatMap(WeatherCondition.init(rawValue:)) {
            weather = Weather(provider: String(buffer: provider), condition: condition,
                              description: description.map { String(buffer: $0) } ?? "", isDay: isDay ?? true,
                              temperatureCelsius: temperature)
        }
        self.entry = Entry(
            id: UUID(diaryString: id) ?? UUID(), title: String(buffer: title), body: String(buffer: body),
            createdAt: Date(millisecondsSince1970: created), updatedAt: Date(millisecondsSince1970: updated),
            version: Int(version), deletedAt: deleted.map(Date.init(millisecondsSince1970:)),
            location: latitude.flatMap { latitude in longitude.flatMap { Coordinates(latitude: latitude, longitude: $0) } },
            weather: weather, tags: tags, starred: starred, photos: [EntryPhoto](storedText: photos), timeZone: zone)
    }

    /// The entry with this id in `owner`'s diary.
    static func fetch(id: UUID, owner: UserID, _ connection: PostgresConnection, _ logger: Logger) async throws -> PostgresEntryRow? {
        for try await row in try await connection.execute(PreparedEntryStatements.Fetch(owner: owner, id: id), logger: logger) {
            return row
        }
        return nil
    }

    /// Stores `entry` unless `owner`'s diary has one with its id; nil when it did not. With
    /// `counting`, the diary's change count moves in the same statement (atomic without a
    /// transaction around it), and is returned (else 0).
    @discardableResult
    static func insert(_ entry: Entry, owner: UserID, counting: Bool = false, _ connection: PostgresConnection,
                       _ logger: Logger) async throws -> Int64? {
        let words = SearchVector.of(title: entry.title, body: entry.body)
        var binds = PostgresBindings()
        binds.append(owner.rawValue)
        binds.append(entry.id.diaryString)
        binds.append(ByteBuffer(string: entry.title))
        binds.append(ByteBuffer(string: entry.body))
        binds.append(entry.createdAt.millisecondsSince1970)
        binds.append(entry.updatedAt.millisecondsSince1970)
        binds.append(Int64(entry.version))
        binds.append(entry.deletedAt?.millisecondsSince1970)
        binds.append(entry.location?.latitude)
        binds.append(entry.location?.longitude)
        appendWeather(entry.weather, to: &binds)
        binds.append(words.vector)
        binds.append(Int32(clamping: words.titleWords))
        binds.append(Int32(clamping: words.bodyWords))
        binds.append(entry.tags)
        binds.append(entry.tags.map(Tags.key))
        binds.append(entry.starred)
        binds.append(Int32(clamping: entry.wordCount))
        binds.append(entry.photos.storedText)
        binds.append(entry.timeZone)
        let insert = """
            INSERT INTO entry (owner_id, id, title, body, created_at, updated_at, version, deleted_at, latitude, longitude,
                weather_provider, weather_condition, weather_description, weather_is_day, weather_temperature,
                words, title_words, body_words, tags, tag_keys, starred, word_count, photos, time_zone)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::tsvector, $17, $18, $19, $20, $21, $22, $23,
                $24)
            ON CONFLICT (owner_id, id) DO NOTHING
            RETURNING seq
            """
        guard counting else {
            for try await _ in try await connection.query(PostgresQuery(unsafeSQL: insert, binds: binds), logger: logger) { return 0 }
            return nil
        }
        let query = PostgresQuery(unsafeSQL: ChangeCount.counting(insert, owner: "$1"), binds: binds)
        for try await count in try await connection.query(query, logger: logger).decode(Int64.self) { return count }
        return nil
    }

    /// What `rewrite` did.
    enum Rewrite {
        /// Another write came first: nothing was written.
        case lost
        /// Nothing differed: nothing was written.
        case unchanged
        /// Written; the diary's change count is now this.
        case written(changeCount: Int64)
    }

    /// Writes `entry` over the stored `row` in one prepared statement (`PreparedEntryStatements`:
    /// new words only when the text changed, byte for byte), and only while the row still has
    /// the version that was read (`UPDATE … WHERE version =`): `.lost` when another write came
    /// first. The diary's change count moves in the same statement.
    static func rewrite(_ row: PostgresEntryRow, to entry: Entry, owner: UserID, _ connection: PostgresConnection,
                        _ logger: Logger) async throws -> Rewrite {
        let difference = Difference(row.entry, entry)
        guard difference.any else { return .unchanged }
        let counts = difference.text
            ? try await connection.execute(PreparedEntryStatements.RewriteWithText(row: row, entry: entry, owner: owner), logger: logger)
            : try await connection.execute(PreparedEntryStatements.RewriteKeepingText(row: row, entry: entry, owner: owner), logger: logger)
        for try await count in counts { return .written(changeCount: count) }
        return .lost
    }

    /// What differs between an entry as stored and what it becomes, byte for byte for the text.
    struct Difference {
        /// The title or the body.
        var text: Bool
        /// Anything that is stored.
        var any: Bool

        init(_ old: Entry, _ new: Entry) {
            text = !(old.title.utf8.elementsEqual(new.title.utf8) && old.body.utf8.elementsEqual(new.body.utf8))
            any = text || old.updatedAt != new.updatedAt || old.createdAt != new.createdAt || old.deletedAt != new.deletedAt
                || old.location != new.location || old.weather != new.weather || old.version != new.version
                || !Tags.same(old.tags, new.tags) || old.starred != new.starred || !EntryPhoto.same(old.photos, new.photos)
                || old.timeZone != new.timeZone
        }
    }

    private static func appendWeather(_ weather: Weather?, to binds: inout PostgresBindings) {
        binds.append(weather.map { ByteBuffer(string: $0.provider) })
        binds.append(weather?.condition.rawValue)
        binds.append(weather.map { ByteBuffer(string: $0.description) })
        binds.append(weather?.isDay)
        binds.append(weather?.temperatureCelsius)
    }
}
