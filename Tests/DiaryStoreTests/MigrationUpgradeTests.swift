import DiaryCore
import DiaryStore
import Foundation
import GRDB
import Testing

/// Every schema change must upgrade a real file made by the first one, losing nothing.
/// `Fixtures/v1-entries.sqlite` was written by the first migration alone ("v1-entries") holding
/// the original app's 15 sample entries, one edited entry and one in the trash. Never regenerate it.
@Suite("Upgrading old diary files")
struct MigrationUpgradeTests {
    static func copyOfFixture() throws -> String {
        let source = try #require(Bundle.module.url(forResource: "Fixtures/v1-entries", withExtension: "sqlite"))
        let path = try TemporaryFolder.make().appendingPathComponent("diary.sqlite").path
        try FileManager.default.copyItem(atPath: source.path, toPath: path)
        return path
    }

    @Test("A file made by the first schema opens at the latest, with every entry, edit and trashed entry")
    func upgradeFromV1() async throws {
        let path = try Self.copyOfFixture()
        let before = try await DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT id, title, body, created_at, updated_at, version, deleted_at FROM entry ORDER BY seq")
        }
        #expect(before.count == 17)

        let store = try SQLiteEntryStore(path: path)
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
        #expect(migrations == ["v1-entries", "v2-weather", "v3-accounts"])
        // v2: old entries have no weather, and can be given some.
        let old = try #require(before.first.flatMap { UUID(uuidString: $0["id"]) })
        #expect(try await store.entry(id: old)?.weather == nil)
        let clear = Weather(provider: "openweather", condition: .clear, description: "clear sky", isDay: true, temperatureCelsius: 21)
        try await store.attachWeather(clear, to: old)
        #expect(try await store.entry(id: old)?.weather == clear)
    }
}
