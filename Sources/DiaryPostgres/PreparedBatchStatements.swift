import DiaryCore
import Foundation
import PostgresNIO

/// The two statements of a batch of changes (`ChangeGatherer`), prepared as the single saves'
/// are (`PreparedEntryStatements`): every row the batch needs, read at once; then every row it
/// changed, written at once, each only while it is still the row that was read, with each
/// diary's change count moved once, by the number of changes it got.
enum PreparedBatchStatements {
    /// An entry of a batch: whose, and which.
    struct Key: Hashable, Sendable {
        var owner: UserID
        var id: UUID
    }

    /// The entries with these keys (those that exist), each with its owner and its row's `xmin`:
    /// the transaction that wrote the row as read, which any later write of it changes (the
    /// version does not move for the weather, so it alone cannot tell that a row was written).
    struct Fetch: PostgresPreparedStatement {
        static let sql = """
            SELECT owner_id, entry.xmin::text::int8, \(PostgresEntryRow.columns)
            FROM unnest($1::int8[], $2::text[]) AS k (k_owner, k_id) JOIN entry ON owner_id = k_owner AND id = k_id
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8Array, .textArray]
        typealias Row = (Key, ReadRow)

        var keys: [Key]

        func makeBindings() throws -> PostgresBindings {
            var binds = PostgresBindings()
            binds.append(keys.map(\.owner.rawValue))
            binds.append(keys.map(\.id.diaryString))
            return binds
        }

        func decodeRow(_ row: PostgresRow) throws -> (Key, ReadRow) {
            let (owner, xmin, sequence, id, title, body, created, updated, version, deleted, latitude, longitude,
                 provider, condition, description, isDay, temperature, tags, starred, photos, zone) = try row.decode(
                    (Int64, Int64, Int64, String, ByteBuffer, ByteBuffer, Int64, Int64, Int64, Int64?, Double?, Double?,
                     ByteBuffer?, String?, ByteBuffer?, Bool?, Double?, [String], Bool, String, String?).self)
            let read = PostgresEntryRow((sequence, id, title, body, created, updated, version, deleted, latitude, longitude,
                                         provider, condition, description, isDay, temperature, tags, starred, photos, zone))
            return (Key(owner: UserID(rawValue: owner), id: read.entry.id), ReadRow(row: read, xmin: xmin))
        }
    }

    /// A row as a batch read it.
    struct ReadRow: Sendable {
        var row: PostgresEntryRow
        var xmin: Int64
    }

    /// A row a batch writes: what it was read as, and what it becomes after `changes` changes.
    struct Write: Sendable {
        var read: ReadRow
        var entry: Entry
        var textChanged: Bool
        var changes: Int
    }

    /// Every write of a batch in one statement: each row is written only while its version and
    /// its `xmin` are those read (else it is left out: lost), and its text and words only when
    /// the text changed (NULL: kept). Tags go as one flat array, each row's a slice of it.
    /// Returns a row `(seq, nil, nil)` per row written, then `(nil, owner, count)` per diary.
    struct Rewrite: PostgresPreparedStatement {
        static let sql = """
            WITH written AS (
                UPDATE entry SET
                    title = coalesce(i.title, entry.title), body = coalesce(i.body, entry.body),
                    words = coalesce(i.words::tsvector, entry.words), title_words = coalesce(i.title_words, entry.title_words),
                    body_words = coalesce(i.body_words, entry.body_words), word_count = coalesce(i.word_count, entry.word_count),
                    updated_at = i.updated_at, created_at = i.created_at, deleted_at = i.deleted_at,
                    latitude = i.latitude, longitude = i.longitude, weather_provider = i.weather_provider,
                    weather_condition = i.weather_condition, weather_description = i.weather_description,
                    weather_is_day = i.weather_is_day, weather_temperature = i.weather_temperature, version = i.version,
                    starred = i.starred, tags = ($24::text[])[i.tags_from:i.tags_to], tag_keys = ($25::text[])[i.tags_from:i.tags_to],
                    photos = i.photos, time_zone = i.time_zone
                FROM unnest($1::int8[], $2::int8[], $3::int8[], $4::bytea[], $5::bytea[], $6::text[], $7::int4[], $8::int4[],
                            $9::int4[], $10::int8[], $11::int8[], $12::int8[], $13::float8[], $14::float8[], $15::bytea[],
                            $16::text[], $17::bytea[], $18::bool[], $19::float8[], $20::int8[], $21::bool[], $22::int4[],
                            $23::int4[], $26::int4[], $27::text[], $28::text[])
                    AS i (seq, read_version, read_xmin, title, body, words, title_words, body_words, word_count, updated_at,
                          created_at, deleted_at, latitude, longitude, weather_provider, weather_condition, weather_description,
                          weather_is_day, weather_temperature, version, starred, tags_from, tags_to, changes, photos, time_zone)
                WHERE entry.seq = i.seq AND entry.version = i.read_version AND entry.xmin = i.read_xmin::text::xid
                RETURNING entry.seq, entry.owner_id, i.changes),
            counted AS (
                INSERT INTO diary_change (owner_id, count)
                SELECT owner_id, sum(changes) FROM written GROUP BY owner_id ORDER BY owner_id
                ON CONFLICT (owner_id) DO UPDATE SET count = diary_change.count + excluded.count
                RETURNING owner_id, count)
            SELECT seq, NULL::int8, NULL::int8 FROM written
            UNION ALL SELECT NULL::int8, owner_id, count FROM counted
            """
        static let bindingDataTypes: [PostgresDataType] = [
            .int8Array, .int8Array, .int8Array, .byteaArray, .byteaArray, .textArray, .int4Array, .int4Array,
            .int4Array, .int8Array, .int8Array, .int8Array, .float8Array, .float8Array, .byteaArray,
            .textArray, .byteaArray, .boolArray, .float8Array, .int8Array, .boolArray, .int4Array,
            .int4Array, .textArray, .textArray, .int4Array, .textArray, .textArray,
        ]
        typealias Row = (Int64?, Int64?, Int64?)

        var writes: [Write]

        func makeBindings() throws -> PostgresBindings {
            let entries = writes.map(\.entry)
            let words = writes.map { $0.textChanged ? SearchVector.of(title: $0.entry.title, body: $0.entry.body) : nil }
            var tags: [String] = [], tagsFrom: [Int32] = [], tagsTo: [Int32] = []
            for entry in entries {
                tagsFrom.append(Int32(tags.count + 1))
                tags += entry.tags
                tagsTo.append(Int32(tags.count))
            }
            func text(_ value: (Write) -> ByteBuffer) -> NullableArray<ByteBuffer> {
                NullableArray(writes.map { $0.textChanged ? value($0) : nil })
            }
            var binds = PostgresBindings()
            binds.append(writes.map(\.read.row.sequence))
            binds.append(writes.map { Int64($0.read.row.entry.version) })
            binds.append(writes.map(\.read.xmin))
            binds.append(text { ByteBuffer(string: $0.entry.title) })
            binds.append(text { ByteBuffer(string: $0.entry.body) })
            binds.append(NullableArray(words.map { $0?.vector }))
            binds.append(NullableArray(words.map { $0.map { Int32(clamping: $0.titleWords) } }))
            binds.append(NullableArray(words.map { $0.map { Int32(clamping: $0.bodyWords) } }))
            binds.append(NullableArray(writes.map { $0.textChanged ? Int32(clamping: $0.entry.wordCount) : nil }))
            binds.append(entries.map(\.updatedAt.millisecondsSince1970))
            binds.append(entries.map(\.createdAt.millisecondsSince1970))
            binds.append(NullableArray(entries.map { $0.deletedAt?.millisecondsSince1970 }))
            binds.append(NullableArray(entries.map { $0.location?.latitude }))
            binds.append(NullableArray(entries.map { $0.location?.longitude }))
            binds.append(NullableArray(entries.map { $0.weather.map { ByteBuffer(string: $0.provider) } }))
            binds.append(NullableArray(entries.map { $0.weather?.condition.rawValue }))
            binds.append(NullableArray(entries.map { $0.weather.map { ByteBuffer(string: $0.description) } }))
            binds.append(NullableArray(entries.map { $0.weather?.isDay }))
            binds.append(NullableArray(entries.map { $0.weather?.temperatureCelsius }))
            binds.append(entries.map { Int64($0.version) })
            binds.append(entries.map(\.starred))
            binds.append(tagsFrom)
            binds.append(tagsTo)
            binds.append(tags)
            binds.append(entries.flatMap { $0.tags.map(Tags.key) })
            binds.append(writes.map { Int32(clamping: $0.changes) })
            binds.append(entries.map(\.photos.storedText))
            binds.append(NullableArray(entries.map(\.timeZone)))
            return binds
        }

        func decodeRow(_ row: PostgresRow) throws -> (Int64?, Int64?, Int64?) {
            try row.decode((Int64?, Int64?, Int64?).self)
        }
    }
}
