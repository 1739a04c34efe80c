import GRDB

/// The schema, one named migration at a time.
///
/// A migration is never edited once it has shipped: a database made by it exists somewhere.
/// Change the schema by appending a new one, and keep a database file made by the
/// migrations before it in Tests/DiaryStoreTests/Fixtures, for the upgrade test.
/// Migrations use literal table and column names, not the Swift types of today.
enum DiaryMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-entries") { db in
            // Dates are Unix milliseconds. `seq` is the row's insertion order: it breaks ties in
            // the list and is the search index's rowid.
            try db.execute(sql: """
                CREATE TABLE entry (
                    seq INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    title TEXT NOT NULL,
                    body TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL,
                    version INTEGER NOT NULL DEFAULT 1,
                    deleted_at INTEGER
                );
                CREATE INDEX entry_diary_order ON entry (created_at DESC, seq DESC) WHERE deleted_at IS NULL;
                CREATE INDEX entry_trash_order ON entry (deleted_at DESC, seq DESC) WHERE deleted_at IS NOT NULL;
                -- Contentless: the text lives once, in `entry`; the index holds only its tokens,
                -- with Korean cut into two-syllable tokens by SearchText before it gets here.
                CREATE VIRTUAL TABLE entry_search USING fts5(
                    title, body, content='', tokenize='unicode61 remove_diacritics 2'
                );
                """)
        }
        migrator.registerMigration("v2-weather") { db in
            // Where (to about 1 km) and in what weather an entry was written. All optional:
            // entries from before, and ones written without location, have none.
            try db.execute(sql: """
                ALTER TABLE entry ADD COLUMN latitude REAL;
                ALTER TABLE entry ADD COLUMN longitude REAL;
                ALTER TABLE entry ADD COLUMN weather_provider TEXT;
                ALTER TABLE entry ADD COLUMN weather_condition TEXT;
                ALTER TABLE entry ADD COLUMN weather_description TEXT;
                ALTER TABLE entry ADD COLUMN weather_is_day INTEGER;
                ALTER TABLE entry ADD COLUMN weather_temperature REAL;
                """)
        }
        return migrator
    }
}
