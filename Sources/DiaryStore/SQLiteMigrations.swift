import Foundation
import GRDB

/// The schema, one named migration at a time.
///
/// A migration is never edited once it has shipped: a database made by it exists somewhere.
/// Change the schema by appending a new one, and keep a database file made by the
/// migrations before it in Tests/DiaryStoreTests/Fixtures, for the upgrade test.
/// Migrations use literal table and column names, not the Swift types of today, and call no
/// application code: a rule one needs is copied into it, frozen (`WordCountV8`).
enum SQLiteMigrations {
    /// The first migration: a file whose `grdb_migrations` holds it is a diary (see `SQLiteFile`).
    static let first = "v1-entries"

    /// Every migration's name, in the order they run.
    static var names: [String] { migrator.migrations }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(first) { db in
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
        migrator.registerMigration("v3-accounts") { db in
            // Each entry belongs to a user; 0 is the local owner of entries written before any
            // account existed, adopted by the first account. Lists walk an index per owner.
            try db.execute(sql: """
                ALTER TABLE entry ADD COLUMN owner_id INTEGER NOT NULL DEFAULT 0;
                DROP INDEX entry_diary_order;
                DROP INDEX entry_trash_order;
                CREATE INDEX entry_owner_diary_order ON entry (owner_id, created_at DESC, seq DESC) WHERE deleted_at IS NULL;
                CREATE INDEX entry_owner_trash_order ON entry (owner_id, deleted_at DESC, seq DESC) WHERE deleted_at IS NOT NULL;
                CREATE TABLE user (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    password_hash TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                );
                -- Only a hash of each session's token is kept: a copy of this file logs no one in.
                CREATE TABLE session (
                    token_hash TEXT PRIMARY KEY,
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    csrf_token TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    last_used_at INTEGER NOT NULL
                );
                CREATE INDEX session_by_user ON session (user_id);
                CREATE TABLE access_token (
                    id INTEGER PRIMARY KEY,
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    token_hash TEXT NOT NULL UNIQUE,
                    created_at INTEGER NOT NULL,
                    last_used_at INTEGER,
                    UNIQUE (user_id, name)
                );
                -- Failed logins by name and by address, for throttling across server instances.
                CREATE TABLE login_failure (subject TEXT NOT NULL, at INTEGER NOT NULL);
                CREATE INDEX login_failure_by_subject ON login_failure (subject, at);
                """)
        }
        migrator.registerMigration("v4-change-counts") { db in
            // A count per owner that goes up with every change to their entries (`ChangeCount`),
            // in the same transaction as the change, so another process sees both or neither. The
            // server checks it before answering a page it keeps in memory. Not kept by triggers:
            // a statement with a trigger opens a statement journal, which makes FTS5 flush its
            // pending tokens to a new segment on every such statement (an import ran 2.5× slower).
            try db.execute(sql: "CREATE TABLE diary_change (owner_id INTEGER PRIMARY KEY, count INTEGER NOT NULL)")
        }
        migrator.registerMigration("v5-user-name-keys") { db in
            // Each name's key: NFKC, full case folding, NFKC again (`User.nameKey`, written out
            // here so that this migration never changes). A UNIQUE index on it keeps "Straße" and
            // "STRASSE", "é" composed and decomposed, or full-width letters and ASCII, from both
            // being accounts; `name`'s NOCASE folded ASCII alone. Two accounts that already collide both stay: the older keeps the
            // key (and every spelling of it), the newer has none and is found by its name exactly
            // as written. Nothing is renamed and no one is locked out.
            try db.execute(sql: "ALTER TABLE user ADD COLUMN name_key TEXT")
            var taken = Set<String>()
            for row in try Row.fetchAll(db, sql: "SELECT id, name FROM user ORDER BY id") {
                let name: String = row["name"]
                let key = name.precomposedStringWithCompatibilityMapping
                    .folding(options: [.caseInsensitive], locale: nil)
                    .precomposedStringWithCompatibilityMapping
                guard taken.insert(key).inserted else { continue }
                try db.execute(sql: "UPDATE user SET name_key = ? WHERE id = ?", arguments: [key, row["id"] as Int64])
            }
            try db.execute(sql: "CREATE UNIQUE INDEX user_by_name_key ON user (name_key)")
        }
        migrator.registerMigration("v6-entry-ids-per-diary") { db in
            // An entry's id is unique within its diary, not across the file: before, importing a
            // file into one diary skipped entries whose ids another diary held (and a create with
            // such an id told the client that some diary held it). SQLite cannot drop the column's
            // UNIQUE, so the table is made again, rows and `seq` (the search index's rowid) kept.
            try db.execute(sql: """
                CREATE TABLE entry_new (
                    seq INTEGER PRIMARY KEY,
                    owner_id INTEGER NOT NULL DEFAULT 0,
                    id TEXT NOT NULL,
                    title TEXT NOT NULL,
                    body TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL,
                    version INTEGER NOT NULL DEFAULT 1,
                    deleted_at INTEGER,
                    latitude REAL,
                    longitude REAL,
                    weather_provider TEXT,
                    weather_condition TEXT,
                    weather_description TEXT,
                    weather_is_day INTEGER,
                    weather_temperature REAL,
                    UNIQUE (owner_id, id)
                );
                INSERT INTO entry_new (seq, owner_id, id, title, body, created_at, updated_at, version, deleted_at,
                    latitude, longitude, weather_provider, weather_condition, weather_description, weather_is_day, weather_temperature)
                SELECT seq, owner_id, id, title, body, created_at, updated_at, version, deleted_at,
                    latitude, longitude, weather_provider, weather_condition, weather_description, weather_is_day, weather_temperature
                FROM entry;
                DROP TABLE entry;
                ALTER TABLE entry_new RENAME TO entry;
                CREATE INDEX entry_owner_diary_order ON entry (owner_id, created_at DESC, seq DESC) WHERE deleted_at IS NULL;
                CREATE INDEX entry_owner_trash_order ON entry (owner_id, deleted_at DESC, seq DESC) WHERE deleted_at IS NOT NULL;
                """)
        }
        migrator.registerMigration("v7-tags-and-stars") { db in
            // An entry's tags, as written, joined by U+001F (a control character no tag holds),
            // and its star. `entry_tag` holds a row per tag of each entry in the diary (none for
            // the trash) with the entry's moment, so a tag's entries are read newest first from
            // its own index, as the whole diary is from `entry_owner_diary_order`; `tag_key` is
            // the tag as compared (`Tags.key`). Kept in step by `SQLiteEntryRow` in each write's
            // transaction (not by triggers: see v4).
            try db.execute(sql: """
                ALTER TABLE entry ADD COLUMN tags TEXT NOT NULL DEFAULT '';
                ALTER TABLE entry ADD COLUMN starred INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE entry_tag (
                    owner_id INTEGER NOT NULL,
                    tag_key TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    seq INTEGER NOT NULL,
                    tag TEXT NOT NULL,
                    PRIMARY KEY (owner_id, tag_key, created_at, seq)
                ) WITHOUT ROWID;
                CREATE INDEX entry_tag_by_entry ON entry_tag (seq);
                CREATE INDEX entry_owner_starred_order ON entry (owner_id, created_at DESC, seq DESC)
                    WHERE deleted_at IS NULL AND starred = 1;
                """)
        }
        migrator.registerMigration("v8-word-counts") { db in
            // How many words each entry holds (`WordCount`), kept beside it so that a year's
            // statistics add up numbers instead of reading every body; counted here once for
            // the entries written before, by the rule frozen with this migration (`WordCountV8`).
            // Read from a cursor: a copied row loses what follows a NUL.
            try db.execute(sql: "ALTER TABLE entry ADD COLUMN word_count INTEGER NOT NULL DEFAULT 0")
            var counts: [(Int64, Int)] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT seq, title, body FROM entry")
            while let row = try rows.next() {
                counts.append((row.integer(0), WordCountV8.of(title: row.text(1), body: row.text(2))))
            }
            let update = try db.makeStatement(sql: "UPDATE entry SET word_count = ? WHERE seq = ?")
            for (sequence, words) in counts where words > 0 { try update.execute(arguments: [words, sequence]) }
        }
        migrator.registerMigration("v9-tag-owners") { db in
            // The first account adopted the entries written before it but left their tags' rows
            // with no one: they follow their entries now.
            try db.execute(sql: """
                UPDATE entry_tag SET owner_id = (SELECT e.owner_id FROM entry AS e WHERE e.seq = entry_tag.seq)
                WHERE owner_id <> (SELECT e.owner_id FROM entry AS e WHERE e.seq = entry_tag.seq)
                """)
        }
        migrator.registerMigration("v10-photos") { db in
            // Photos, kept in the file so that a copy of it is the whole diary. Each diary keeps
            // each photo once, named by the SHA-256 of its bytes (`id`), which are split into
            // `photo_part` rows of 256 KiB: read and written a part at a time, a photo is never
            // whole in memory. The thumbnail (tens of kilobytes) sits in the photo's row. An
            // entry holds its photos' names, captions and sizes as JSON in `photos` ('' for
            // none: most entries).
            try db.execute(sql: """
                ALTER TABLE entry ADD COLUMN photos TEXT NOT NULL DEFAULT '';
                CREATE TABLE photo (
                    owner_id INTEGER NOT NULL,
                    id TEXT NOT NULL,
                    format TEXT NOT NULL,
                    width INTEGER NOT NULL,
                    height INTEGER NOT NULL,
                    byte_count INTEGER NOT NULL,
                    stored_at INTEGER NOT NULL,
                    thumbnail_format TEXT,
                    thumbnail_width INTEGER,
                    thumbnail_height INTEGER,
                    thumbnail BLOB,
                    UNIQUE (owner_id, id)
                );
                CREATE TABLE photo_part (
                    owner_id INTEGER NOT NULL,
                    photo_id TEXT NOT NULL,
                    part INTEGER NOT NULL,
                    bytes BLOB NOT NULL,
                    PRIMARY KEY (owner_id, photo_id, part)
                );
                """)
        }
        migrator.registerMigration("v11-session-labels") { db in
            // The device each session began on ("Firefox · Android", read from its User-Agent
            // at login), for the list of signed-in devices; '' for sessions begun before.
            try db.execute(sql: "ALTER TABLE session ADD COLUMN label TEXT NOT NULL DEFAULT ''")
        }
        migrator.registerMigration("v12-time-zones") { db in
            // The zone each entry's writer's clock was in ("Asia/Seoul"), so the list shows it
            // on the day it was written wherever it is read; NULL where no one said (every entry
            // written before this, and imports from formats without zones).
            try db.execute(sql: "ALTER TABLE entry ADD COLUMN time_zone TEXT")
        }
        return migrator
    }
}
