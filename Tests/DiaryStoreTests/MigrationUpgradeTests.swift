import DiaryCore
import DiaryPasswords
@testable import DiaryStore
import Foundation
import GRDB
import Testing

/// Every schema change must upgrade a real file made by the first one, losing nothing.
/// `Fixtures/v1-entries.sqlite` was written by the first migration alone ("v1-entries") holding
/// the original app's 15 sample entries, one edited entry and one in the trash. Never regenerate it.
@Suite("Upgrading old diary files")
struct MigrationUpgradeTests {
    static func copyOfFixture(_ name: String = "v1-entries") throws -> String {
        let source = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "sqlite"))
        let path = try TemporaryFolder.make().appendingPathComponent("diary.sqlite").path
        try FileManager.default.copyItem(atPath: source.path, toPath: path)
        return path
    }

    @Test("A file made by the first schema opens at the latest, with every entry, edit and trashed entry")
    func upgradeFromV1() async throws {
        let path = try Self.copyOfFixture()
        let before = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT id, title, body, created_at, updated_at, version, deleted_at FROM entry ORDER BY seq")
        }
        #expect(before.count == 17)

        let store = try SQLiteStorage.diary(path: path)
        #expect(try await store.count() == 16)
        for row in before {
            let found = try await store.entry(id: UUID(uuidString: row["id"])!)
            let entry = try #require(found)
            #expect(entry.title == row["title"])
            #expect(entry.body == row["body"])
            #expect(entry.createdAt.millisecondsSince1970 == row["created_at"])
            #expect(entry.version == row["version"])
            #expect((entry.deletedAt?.millisecondsSince1970) == (row["deleted_at"] as Int64?))
        }
        // The search index made by the old schema still answers, in both languages.
        #expect(try await store.search("serenity", limit: 50).count == 15)
        #expect(try await store.search("일기", limit: 50).map(\.entry.title) == ["Edited in v1"])
        let migrations = try await DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(migrations == ["v1-entries", "v2-weather", "v3-accounts", "v4-change-counts", "v5-user-name-keys", "v6-entry-ids-per-diary",
                               "v7-tags-and-stars", "v8-word-counts", "v9-tag-owners", "v10-photos", "v11-session-labels",
                               "v12-time-zones"])
        #expect(migrations == SQLiteMigrations.names)
        // v2: old entries have no weather, and can be given some.
        let old = try #require(before.first.flatMap { UUID(uuidString: $0["id"]) })
        #expect(try await store.entry(id: old)?.weather == nil)
        let clear = Weather(provider: "openweather", condition: .clear, description: "clear sky", isDay: true, temperatureCelsius: 21)
        // Below `Diary`'s rules, which attach only the weather of now to an entry of now.
        _ = try await SQLiteStorage(path: path).entryRows(of: .localOwner).change(id: old) { entry in
            var given = entry
            given.weather = clear
            return given
        }
        #expect(try await store.entry(id: old)?.weather == clear)
        // v7: old entries have no tags and no star, and can be given both.
        let plain = try #require(try await store.entry(id: old))
        #expect(plain.tags.isEmpty && !plain.starred)
        let tagged = try await store.edit(id: old, try EntryEdit(tags: ["옛날", "old"], starred: true), expecting: plain.version)
        #expect(try await store.entry(id: old) == tagged)
        #expect(try await store.list(after: nil, limit: 50).entries.first { $0.id == old }?.tags == ["옛날", "old"])
        // v10: old entries have no photos, and can be given one.
        #expect(tagged.photos.isEmpty)
        let photo = StoredPhoto(id: PhotoID(String(repeating: "b", count: 64))!, format: .png, width: 3, height: 2, byteCount: 4,
                                storedAt: Date())
        // Below `Diary`'s rules: bytes that stand for a PNG.
        _ = try await SQLiteStorage(path: path).photoRows(of: .localOwner).store(photo, content: Data([1, 2, 3, 4]))
        let pictured = try await store.edit(id: old, try EntryEdit(photos: [EntryPhoto(id: photo.id, caption: "옛 사진")]),
                                            expecting: tagged.version)
        #expect(try await store.entry(id: old)?.photos == [EntryPhoto(id: photo.id, caption: "옛 사진", width: 3, height: 2)])
        #expect(pictured.version == tagged.version + 1)
    }

    @Test("A file at each earlier schema opens at the latest, every entry's words counted", arguments: SQLiteMigrations.names.dropLast())
    func upgradeFromEachSchema(schema: String) async throws {
        // The v1 file brought to that schema by the migrations as they shipped (never edited).
        let path = try Self.copyOfFixture()
        try SQLiteMigrations.migrator.migrate(DatabaseQueue(path: path), upTo: schema)
        let texts = try await DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT id, title, body, created_at FROM entry WHERE deleted_at IS NULL").map {
                row -> (String, String, String, Int64) in (row["id"], row["title"], row["body"], row["created_at"])
            }
        }
        let store = try SQLiteStorage.diary(path: path)
        #expect(try await store.count() == 16)
        var words = 0
        var years = Set<Int>()
        for (id, title, body, created) in texts {
            years.insert(LocalDay(moment: created, in: TimeZone(identifier: "UTC")!).year)
            #expect(try await store.entry(id: UUID(uuidString: id)!)?.title == title)
            words += WordCount.of(title: title, body: body)
        }
        #expect(words > 100)
        var counted = 0
        for year in years { counted += try await store.yearAtAGlance(year, in: TimeZone(identifier: "UTC")!).words }
        #expect(counted == words)
    }

    @Test("A file where the first account left its tags' rows behind has them back with their entries")
    func tagOwnersRepaired() async throws {
        let path = try TemporaryFolder.make().appendingPathComponent("diary.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try SQLiteMigrations.migrator.migrate(queue, upTo: "v8-word-counts")
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO user (id, name, name_key, password_hash, created_at) VALUES (7, 'mina', 'mina', 'x', 0)")
            try db.execute(sql: """
                INSERT INTO entry (seq, owner_id, id, title, body, created_at, updated_at, tags)
                VALUES (1, 7, '0b8f3c2e-1111-4a4a-9a9a-000000000001', 'Adopted', '', 1000, 1000, 'early')
                """)
            try db.execute(sql: "INSERT INTO entry_tag (owner_id, tag_key, created_at, seq, tag) VALUES (0, 'early', 1000, 1, 'early')")
        }
        let minas = try SQLiteDatabase(path: path).diary(of: UserID(rawValue: 7))
        #expect(try await minas.tags() == [TagCount(tag: "early", count: 1)])
        #expect(try await minas.list(after: nil, limit: 5, filter: try EntryFilter(tags: ["early"])).entries.map(\.title) == ["Adopted"])
    }

    /// `Fixtures/v3-accounts.sqlite` was written by the first three migrations through the
    /// command line: an entry written before any account, adopted by the first account "mina",
    /// who wrote another and trashed a third, and "joon" with one entry. Never regenerate it.
    @Test("A file made before change counts keeps each user's diary, and counts every change from then on")
    func upgradeFromV3() async throws {
        let path = try Self.copyOfFixture("v3-accounts")
        let database = try SQLiteDatabase(path: path)
        let accounts = SQLiteStorage(database: database).accounts(passwords: BcryptPasswords(cost: 4))
        let mina = try #require(try await accounts.user(named: "mina"))
        let joon = try #require(try await accounts.user(named: "joon"))
        let minas = database.diary(of: mina.id)
        let joons = database.diary(of: joon.id)
        #expect(try await minas.list(after: nil, limit: 10).entries.map(\.title) == ["Mina's rainy day", "Before accounts"])
        #expect(try await minas.trash(after: nil, limit: 10).entries.map(\.title) == ["Trashed"])
        #expect(try await joons.list(after: nil, limit: 10).entries.map(\.title) == ["Joon's entry"])
        #expect(try await minas.search("비가", limit: 5).map(\.entry.title) == ["Mina's rainy day"])

        let minasBefore = try await minas.changeCount()
        let joonsBefore = try await joons.changeCount()
        _ = try await minas.create(try EntryText(title: "After the upgrade", body: ""), id: UUID()).entry
        #expect(try await minas.changeCount() > minasBefore)
        // One diary's change is not another's.
        #expect(try await joons.changeCount() == joonsBefore)
    }
}
