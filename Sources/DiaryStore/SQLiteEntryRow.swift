import DiaryCore
import Foundation
import GRDB

/// An entry as a row of the `entry` table, and the statements that keep the search index
/// in step with it. The index is contentless, so removing a row's tokens needs the words it
/// was indexed with: every change goes through here, and notes its words in the transaction's
/// `SearchIndexChanges`, which changes the index before the transaction commits.
struct SQLiteEntryRow {
    var sequence: Int64
    var entry: Entry

    /// Every query reads these columns in this order, so rows are read by position: looking
    /// columns up by name compared strings for each of the fifteen, on each row of each page.
    static let columns = "seq, id, title, body, created_at, updated_at, version, deleted_at, " + laterColumns
    /// The columns after the body and the dates, which a list row reads too.
    static let laterColumns =
        "latitude, longitude, weather_provider, weather_condition, weather_description, weather_is_day, weather_temperature, tags, starred, photos, time_zone"

    /// Positions in `columns` (a list reads `substr(body, …)` at `body`'s place).
    enum Column {
        static let sequence = 0, id = 1, title = 2, body = 3, createdAt = 4, updatedAt = 5, version = 6, deletedAt = 7
        static let latitude = 8, longitude = 9, weatherProvider = 10, weatherCondition = 11, weatherDescription = 12
        static let weatherIsDay = 13, weatherTemperature = 14, tags = 15, starred = 16, photos = 17, timeZone = 18
    }

    init(_ row: some ColumnValues) {
        sequence = row.integer(Column.sequence)
        entry = Entry(
            id: UUID(diaryString: row.text(Column.id)) ?? UUID(),
            title: row.text(Column.title),
            body: row.text(Column.body),
            createdAt: Date(millisecondsSince1970: row.integer(Column.createdAt)),
            updatedAt: Date(millisecondsSince1970: row.integer(Column.updatedAt)),
            version: Int(row.integer(Column.version)),
            deletedAt: row.optionalInteger(Column.deletedAt).map(Date.init(millisecondsSince1970:)),
            location: Self.location(row),
            weather: Self.weather(row),
            tags: Self.tags(row),
            starred: row.integer(Column.starred) != 0,
            photos: [EntryPhoto](storedText: row.text(Column.photos)),
            timeZone: row.optionalText(Column.timeZone))
    }

    /// How `entry.tags` keeps an entry's tags: joined by U+001F, which no tag holds (`Tags`).
    static let tagSeparator = "\u{1F}"

    static func tags(_ row: some ColumnValues) -> [String] {
        let joined = row.text(Column.tags)
        return joined.isEmpty ? [] : joined.split(separator: tagSeparator, omittingEmptySubsequences: false).map(String.init)
    }

    /// The entry's rows in `entry_tag`, which a tag's list walks: one per tag while the entry is
    /// in the diary, none while it is in the trash. `replacing` removes what was there first.
    static func writeTagRows(of entry: Entry, sequence: Int64, owner: UserID, replacing: Bool, _ db: Database) throws {
        if replacing {
            try db.cachedStatement(sql: "DELETE FROM entry_tag WHERE seq = ?").execute(arguments: [sequence])
        }
        guard entry.deletedAt == nil else { return }
        let insert = try db.cachedStatement(sql: "INSERT INTO entry_tag (owner_id, tag_key, created_at, seq, tag) VALUES (?, ?, ?, ?, ?)")
        for tag in entry.tags {
            try insert.execute(arguments: [owner.rawValue, Tags.key(tag), entry.createdAt.millisecondsSince1970, sequence, tag])
        }
    }

    /// The name of the entry's first photo, read without decoding the rest (a list row needs
    /// only that one).
    static func firstPhoto(_ row: some ColumnValues) -> PhotoID? {
        let text = row.text(Column.photos)
        guard !text.isEmpty, let range = text.range(of: #""id":""#) else { return nil }
        return PhotoID(text[range.upperBound...].prefix(64))
    }

    static func location(_ row: some ColumnValues) -> Coordinates? {
        guard let latitude = row.optionalDouble(Column.latitude), let longitude = row.optionalDouble(Column.longitude) else { return nil }
        return Coordinates(latitude: latitude, longitude: longitude)
    }

    /// A stored condition this version does not know (written by a newer one) reads as no weather.
    static func weather(_ row: some ColumnValues) -> Weather? {
        guard let provider = row.optionalText(Column.weatherProvider),
              let condition = row.optionalText(Column.weatherCondition).flatMap(WeatherCondition.init(rawValue:))
        else { return nil }
        return Weather(provider: provider, condition: condition, description: row.optionalText(Column.weatherDescription) ?? "",
                       isDay: row.optionalInteger(Column.weatherIsDay).map { $0 != 0 } ?? true,
                       temperatureCelsius: row.optionalDouble(Column.weatherTemperature))
    }

    static func setWeather(_ weather: Weather, sequence: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: """
                UPDATE entry SET weather_provider = ?, weather_condition = ?, weather_description = ?,
                    weather_is_day = ?, weather_temperature = ? WHERE seq = ?
                """).execute(
            arguments: [weather.provider, weather.condition.rawValue, weather.description, weather.isDay,
                        weather.temperatureCelsius, sequence])
    }

    /// The entry with this id in `owner`'s diary; another user's entry is as good as absent.
    static func fetch(_ db: Database, id: UUID, owner: UserID) throws -> SQLiteEntryRow? {
        try db.cachedStatement(sql: "SELECT \(columns) FROM entry WHERE id = ? AND owner_id = ?")
            .readFirstRow([.text(id.diaryString), .integer(owner.rawValue)]) { SQLiteEntryRow($0) }
    }

    /// Whether `owner`'s diary has an entry with this id. Ids are unique within a diary, not
    /// across the file: what another diary holds is never looked at.
    static func exists(_ db: Database, id: UUID, owner: UserID) throws -> Bool {
        try db.cachedStatement(sql: "SELECT 1 FROM entry WHERE owner_id = ? AND id = ?")
            .readFirstRow([.integer(owner.rawValue), .text(id.diaryString)]) { _ in true } ?? false
    }

    /// Refuses an entry that would name a photo the diary does not hold (`EntryError.photoNotStored`),
    /// checked in the write that names it: SQLite has one writer, so no purge of unused photos
    /// comes between this check and the entry's row. (Checked only before, a photo deleted for
    /// good in between was named by an entry for ever, and the diary's own ZIP then refused to
    /// import.) Photos the row held already (`held`) need no check: they are held.
    static func requireStored(_ photos: [EntryPhoto], besides held: [EntryPhoto] = [], owner: UserID, _ db: Database) throws {
        guard !photos.isEmpty else { return }
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM photo WHERE owner_id = ? AND id = ?")
        let kept = Set(held.map(\.id))
        for photo in photos where !kept.contains(photo.id) {
            guard try statement.readFirstRow([.integer(owner.rawValue), .text(photo.id.hex)], { _ in true }) == true else {
                throw EntryError.photoNotStored(photo.id.hex)
            }
        }
    }

    static func insert(_ entry: Entry, owner: UserID, index: SearchIndexChanges, checkingPhotos: Bool = true, _ db: Database) throws {
        if checkingPhotos { try requireStored(entry.photos, owner: owner, db) }
        try db.cachedStatement(sql: """
                INSERT INTO entry (owner_id, id, title, body, created_at, updated_at, version, deleted_at, latitude, longitude, tags, starred,
                    word_count, photos, time_zone)
                VALUES (?, ?, CAST(? AS TEXT), CAST(? AS TEXT), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(
            arguments: [
                owner.rawValue,
                entry.id.diaryString, ExactText.argument(entry.title), ExactText.argument(entry.body),
                entry.createdAt.millisecondsSince1970,
                entry.updatedAt.millisecondsSince1970, entry.version, entry.deletedAt?.millisecondsSince1970,
                entry.location?.latitude, entry.location?.longitude,
                entry.tags.joined(separator: tagSeparator), entry.starred, entry.wordCount, entry.photos.storedText,
                entry.timeZone,
            ])
        let sequence = db.lastInsertedRowID
        if let weather = entry.weather { try setWeather(weather, sequence: sequence, db) }
        if !entry.tags.isEmpty { try writeTagRows(of: entry, sequence: sequence, owner: owner, replacing: false, db) }
        try index.change(sequence, from: nil, to: (entry.title, entry.body), db)
    }

    /// Writes `entry` over the stored `row`: each group of columns that changed, by its own
    /// statement. Setting a column an index holds (the moment, the trash's) costs that index an
    /// update even when the value is the same, so an autosave sets only its words; and the
    /// search index hears of words only when they changed, byte for byte.
    static func rewrite(_ row: SQLiteEntryRow, to entry: Entry, owner: UserID, index: SearchIndexChanges, _ db: Database) throws {
        let old = row.entry
        let textChanged = !(old.title.utf8.elementsEqual(entry.title.utf8) && old.body.utf8.elementsEqual(entry.body.utf8))
        let words = textChanged || old.updatedAt != entry.updatedAt
        let place = old.createdAt != entry.createdAt || old.deletedAt != entry.deletedAt
        if textChanged {
            try db.cachedStatement(sql: """
                UPDATE entry SET title = CAST(? AS TEXT), body = CAST(? AS TEXT), updated_at = ?, version = ?, word_count = ? WHERE seq = ?
                """).execute(
                arguments: [ExactText.argument(entry.title), ExactText.argument(entry.body), entry.updatedAt.millisecondsSince1970,
                            entry.version, entry.wordCount, row.sequence])
            try index.change(row.sequence, from: (old.title, old.body), to: (entry.title, entry.body), db)
        } else if words {
            // A new version whose words are the same (a star, tags): the text is not written again.
            try db.cachedStatement(sql: "UPDATE entry SET updated_at = ?, version = ? WHERE seq = ?").execute(
                arguments: [entry.updatedAt.millisecondsSince1970, entry.version, row.sequence])
        }
        if place || (!words && old.version != entry.version) {
            // Trash and restore leave the words, and so the index, as they are: search filters the trash out.
            try db.cachedStatement(sql: "UPDATE entry SET created_at = ?, deleted_at = ?, version = ? WHERE seq = ?").execute(
                arguments: [entry.createdAt.millisecondsSince1970, entry.deletedAt?.millisecondsSince1970, entry.version, row.sequence])
        }
        let tagsChanged = !Tags.same(old.tags, entry.tags)
        if tagsChanged || old.starred != entry.starred {
            try db.cachedStatement(sql: "UPDATE entry SET tags = ?, starred = ? WHERE seq = ?").execute(
                arguments: [entry.tags.joined(separator: tagSeparator), entry.starred, row.sequence])
        }
        if (tagsChanged || place) && !(old.tags.isEmpty && entry.tags.isEmpty) {
            try writeTagRows(of: entry, sequence: row.sequence, owner: owner, replacing: true, db)
        }
        if !EntryPhoto.same(old.photos, entry.photos) {
            try requireStored(entry.photos, besides: old.photos, owner: owner, db)
            try db.cachedStatement(sql: "UPDATE entry SET photos = ? WHERE seq = ?").execute(
                arguments: [entry.photos.storedText, row.sequence])
        }
        if old.timeZone != entry.timeZone {
            try db.cachedStatement(sql: "UPDATE entry SET time_zone = ? WHERE seq = ?").execute(arguments: [entry.timeZone, row.sequence])
        }
        if old.location != entry.location {
            try db.cachedStatement(sql: "UPDATE entry SET latitude = ?, longitude = ? WHERE seq = ?").execute(
                arguments: [entry.location?.latitude, entry.location?.longitude, row.sequence])
        }
        if old.weather != entry.weather {
            if let weather = entry.weather {
                try setWeather(weather, sequence: row.sequence, db)
            } else {
                try db.cachedStatement(sql: """
                    UPDATE entry SET weather_provider = NULL, weather_condition = NULL, weather_description = NULL,
                        weather_is_day = NULL, weather_temperature = NULL WHERE seq = ?
                    """).execute(arguments: [row.sequence])
            }
        }
    }

    static func delete(_ row: SQLiteEntryRow, index: SearchIndexChanges, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM entry WHERE seq = ?").execute(arguments: [row.sequence])
        if !row.entry.tags.isEmpty {
            try db.cachedStatement(sql: "DELETE FROM entry_tag WHERE seq = ?").execute(arguments: [row.sequence])
        }
        try index.change(row.sequence, from: (row.entry.title, row.entry.body), to: nil, db)
    }
}
