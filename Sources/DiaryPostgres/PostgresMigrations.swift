import Foundation
import Logging
import PostgresNIO

/// The schema on PostgreSQL, one named migration at a time, as on SQLite: a migration is never
/// edited once it has shipped; the schema changes by appending one. They run under an advisory
/// lock, so that several `diary serve` instances starting at once migrate exactly once: the
/// first takes the lock and migrates, the others wait for it and find nothing left to do.
/// Migrations call no application code: a rule one needs is copied into it, frozen (`WordCountV4`).
enum PostgresMigrations {
    /// The advisory lock's key: "diary" in ASCII, so that no other program's lock is ours.
    static let lockKey: Int64 = 0x64_69_61_72_79

    /// (name, SQL), in the order they run.
    static let all: [(name: String, sql: String)] = [
        ("v1-diary", """
            -- Text is kept as UTF-8 bytes (bytea): PostgreSQL's text cannot hold a NUL, and a
            -- diary keeps what was written byte for byte. Dates are Unix milliseconds, as on
            -- SQLite. `seq` is the row's insertion order: it breaks ties in the lists.
            CREATE TABLE entry (
                seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                owner_id bigint NOT NULL,
                id text COLLATE "C" NOT NULL,
                title bytea NOT NULL,
                body bytea NOT NULL,
                created_at bigint NOT NULL,
                updated_at bigint NOT NULL,
                version bigint NOT NULL,
                deleted_at bigint,
                latitude double precision,
                longitude double precision,
                weather_provider bytea,
                weather_condition text,
                weather_description bytea,
                weather_is_day boolean,
                weather_temperature double precision,
                -- The words search finds (`SearchWords`, as SQLite's FTS5 cuts them), the title's
                -- weighted A; and how many words the title and the body have, for ranking.
                words tsvector NOT NULL,
                title_words integer NOT NULL,
                body_words integer NOT NULL,
                UNIQUE (owner_id, id)
            );
            CREATE INDEX entry_owner_diary_order ON entry (owner_id, created_at DESC, seq DESC) WHERE deleted_at IS NULL;
            CREATE INDEX entry_owner_trash_order ON entry (owner_id, deleted_at DESC, seq DESC) WHERE deleted_at IS NOT NULL;
            CREATE INDEX entry_words ON entry USING gin (words);
            -- A count per owner moved by every write of their entries, in the write's transaction.
            CREATE TABLE diary_change (owner_id bigint PRIMARY KEY, count bigint NOT NULL);
            CREATE TABLE diary_user (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                name text COLLATE "C" NOT NULL UNIQUE,
                name_key text COLLATE "C" UNIQUE,
                password_hash text NOT NULL,
                created_at bigint NOT NULL
            );
            -- Only a hash of each session's and token's secret is kept.
            CREATE TABLE session (
                token_hash text COLLATE "C" PRIMARY KEY,
                user_id bigint NOT NULL REFERENCES diary_user (id) ON DELETE CASCADE,
                csrf_token text NOT NULL,
                created_at bigint NOT NULL,
                last_used_at bigint NOT NULL
            );
            CREATE INDEX session_by_user ON session (user_id);
            CREATE TABLE access_token (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                user_id bigint NOT NULL REFERENCES diary_user (id) ON DELETE CASCADE,
                name text COLLATE "C" NOT NULL,
                token_hash text COLLATE "C" NOT NULL UNIQUE,
                created_at bigint NOT NULL,
                last_used_at bigint,
                UNIQUE (user_id, name)
            );
            -- Failed logins by name and by address (as bytes: a name may hold anything).
            CREATE TABLE login_failure (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                subject bytea NOT NULL,
                at bigint NOT NULL
            );
            CREATE INDEX login_failure_by_subject ON login_failure (subject, at);
            """),
        ("v2-notify", """
            -- Every instance is told of each write when it commits (ChangeFeed): a diary's new
            -- change count, and that a login ended (a session, a token, a password, an account).
            -- (Each body on one line: a statement here ends with a semicolon at the end of a line.)
            CREATE FUNCTION diary_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_notify('diary', 'c ' || NEW.owner_id || ' ' || NEW.count); RETURN NULL; END $$;
            CREATE FUNCTION diary_notify_login() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_notify('diary', 'a'); RETURN NULL; END $$;
            CREATE TRIGGER diary_change_notify AFTER INSERT OR UPDATE ON diary_change
                FOR EACH ROW EXECUTE FUNCTION diary_notify_change();
            CREATE TRIGGER session_notify AFTER DELETE OR UPDATE OF token_hash, user_id, csrf_token ON session
                FOR EACH STATEMENT EXECUTE FUNCTION diary_notify_login();
            CREATE TRIGGER access_token_notify AFTER DELETE OR UPDATE ON access_token
                FOR EACH STATEMENT EXECUTE FUNCTION diary_notify_login();
            CREATE TRIGGER diary_user_notify AFTER DELETE OR UPDATE ON diary_user
                FOR EACH STATEMENT EXECUTE FUNCTION diary_notify_login();
            """),
        ("v3-tags-and-stars", """
            -- An entry's tags as written, the same as compared (`Tags.key`, made by Diary: the
            -- database's lower() folds case otherwise), and its star. `entry_tag` holds a row per
            -- tag of each entry in the diary (none for the trash) with the entry's moment, so a
            -- tag's entries are read newest first from its own index. Triggers keep it in step
            -- within the statement that writes the entry, so every write stays one statement.
            ALTER TABLE entry ADD COLUMN tags text[] NOT NULL DEFAULT '{}';
            ALTER TABLE entry ADD COLUMN tag_keys text[] NOT NULL DEFAULT '{}';
            ALTER TABLE entry ADD COLUMN starred boolean NOT NULL DEFAULT false;
            CREATE TABLE entry_tag (
                owner_id bigint NOT NULL,
                tag_key text COLLATE "C" NOT NULL,
                created_at bigint NOT NULL,
                seq bigint NOT NULL REFERENCES entry (seq) ON DELETE CASCADE,
                tag text NOT NULL,
                PRIMARY KEY (owner_id, tag_key, created_at, seq)
            );
            CREATE INDEX entry_tag_by_entry ON entry_tag (seq);
            CREATE INDEX entry_owner_starred_order ON entry (owner_id, created_at DESC, seq DESC) WHERE deleted_at IS NULL AND starred;
            CREATE FUNCTION diary_entry_tags() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF TG_OP = 'UPDATE' THEN DELETE FROM entry_tag WHERE seq = OLD.seq; END IF; IF NEW.deleted_at IS NULL THEN INSERT INTO entry_tag (owner_id, tag_key, created_at, seq, tag) SELECT NEW.owner_id, t.tag_key, NEW.created_at, NEW.seq, t.tag FROM unnest(NEW.tag_keys, NEW.tags) AS t (tag_key, tag); END IF; RETURN NULL; END $$;
            CREATE TRIGGER entry_tags_inserted AFTER INSERT ON entry
                FOR EACH ROW WHEN (cardinality(NEW.tags) > 0) EXECUTE FUNCTION diary_entry_tags();
            CREATE TRIGGER entry_tags_changed AFTER UPDATE ON entry
                FOR EACH ROW WHEN ((cardinality(OLD.tags) > 0 OR cardinality(NEW.tags) > 0) AND (OLD.tags IS DISTINCT FROM NEW.tags OR OLD.created_at <> NEW.created_at OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at))
                EXECUTE FUNCTION diary_entry_tags();
            """),
        ("v4-word-counts", """
            -- How many words each entry holds (`WordCount`), kept beside it so that a year's
            -- statistics add up numbers instead of reading every body; the entries written
            -- before are counted by `countWords` in the same transaction (`WordCountV4`'s rule).
            ALTER TABLE entry ADD COLUMN word_count integer NOT NULL DEFAULT 0;
            """),
        ("v5-tag-owners", """
            -- The first account adopted the entries written before it but left their tags' rows
            -- with no one: they follow their entries now.
            UPDATE entry_tag AS t SET owner_id = e.owner_id FROM entry AS e WHERE e.seq = t.seq AND t.owner_id <> e.owner_id;
            """),
        ("v6-photos", """
            -- Photos, kept in the database so that its backup is the whole diary (as SQLite's v10):
            -- each diary keeps each photo once, named by the SHA-256 of its bytes, in parts of
            -- 256 KiB (`photo_part`), never whole in memory; the thumbnail in the photo's row. An
            -- entry holds its photos' names, captions and sizes as JSON ('' for none).
            ALTER TABLE entry ADD COLUMN photos text NOT NULL DEFAULT '';
            CREATE TABLE photo (
                owner_id bigint NOT NULL,
                id text COLLATE "C" NOT NULL,
                format text NOT NULL,
                width integer NOT NULL,
                height integer NOT NULL,
                byte_count bigint NOT NULL,
                stored_at bigint NOT NULL,
                thumbnail_format text,
                thumbnail_width integer,
                thumbnail_height integer,
                thumbnail bytea,
                PRIMARY KEY (owner_id, id)
            );
            CREATE TABLE photo_part (
                owner_id bigint NOT NULL,
                photo_id text COLLATE "C" NOT NULL,
                part integer NOT NULL,
                bytes bytea NOT NULL,
                PRIMARY KEY (owner_id, photo_id, part),
                FOREIGN KEY (owner_id, photo_id) REFERENCES photo (owner_id, id) ON DELETE CASCADE
            );
            """),
        ("v7-session-labels", """
            -- The device each session began on ("Firefox · Android", read from its User-Agent at
            -- login), for the list of signed-in devices; '' for sessions begun before.
            ALTER TABLE session ADD COLUMN label text NOT NULL DEFAULT '';
            """),
        ("v8-time-zones", """
            -- The zone each entry's writer's clock was in ('Asia/Seoul'), so the list shows it on
            -- the day it was written wherever it is read; NULL where no one said.
            ALTER TABLE entry ADD COLUMN time_zone text;
            """),
        ("v9-photos-held", """
            -- An entry may name only photos its diary holds, checked in the statement that writes it
            -- and held there: the photos it names are locked (FOR KEY SHARE, in the order of their
            -- names, as the removal of unused photos locks them FOR UPDATE), so that removal either
            -- comes first (the write is refused: the photo is gone) or waits for the write and then
            -- sees the entry that holds it. Checked only before, a photo deleted for good in between
            -- stayed named by an entry for ever, and the diary's own ZIP then refused to import.
            -- `diary copy` writes rows as they were (SET LOCAL diary.copying): it checks nothing.
            CREATE FUNCTION entry_photos_held() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                named text[];
                held text[];
            BEGIN
                IF NEW.photos = '' OR (TG_OP = 'UPDATE' AND NEW.photos = OLD.photos)
                    OR current_setting('diary.copying', true) = 'on' THEN
                    RETURN NEW;
                END IF;
                -- The names read from the JSON's text: PostgreSQL's JSON functions refuse a caption
                -- holding a NUL, which a diary keeps. In the compact JSON Diary writes, `"id":"` is
                -- only ever a photo's name (a caption's quotes are escaped).
                named := ARRAY(SELECT DISTINCT m[1] FROM regexp_matches(NEW.photos, '"id":"([0-9a-f]{64})"', 'g') AS m);
                IF TG_OP = 'UPDATE' AND OLD.photos <> '' THEN
                    named := ARRAY(SELECT unnest(named)
                                   EXCEPT SELECT m[1] FROM regexp_matches(OLD.photos, '"id":"([0-9a-f]{64})"', 'g') AS m);
                END IF;
                IF cardinality(named) = 0 THEN
                    RETURN NEW;
                END IF;
                held := ARRAY(SELECT id FROM photo WHERE owner_id = NEW.owner_id AND id = ANY(named) ORDER BY id FOR KEY SHARE);
                IF cardinality(held) < cardinality(named) THEN
                    RAISE EXCEPTION USING ERRCODE = 'foreign_key_violation', MESSAGE = 'photo_not_stored',
                        DETAIL = (SELECT min(n) FROM unnest(named) AS n WHERE NOT n = ANY(held));
                END IF;
                RETURN NEW;
            END
            $$;
            CREATE TRIGGER entry_photos_held BEFORE INSERT OR UPDATE OF photos ON entry
                FOR EACH ROW EXECUTE FUNCTION entry_photos_held();
            """),
    ]

    /// Work a migration needs Swift for, run after its SQL, in its transaction.
    static let afterward: [String: @Sendable (PostgresConnection, Logger) async throws -> Void] = [
        "v4-word-counts": countWords,
    ]

    /// The statements of a migration, one by one (a prepared statement holds only one): the
    /// migrations end each with a semicolon at the end of a line, and hold no other outside a
    /// function's body (between `$$` lines, whose own statements end so too).
    static func statements(of sql: String) -> [String] {
        var statements: [String] = [], current: [Substring] = [], inBody = false
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !inBody && trimmed.hasPrefix("--") { continue }
            current.append(line)
            if line.components(separatedBy: "$$").count % 2 == 0 { inBody.toggle() }
            if !inBody && trimmed.hasSuffix(";") {
                statements.append(String(current.joined(separator: "\n").trimmingCharacters(in: .whitespaces).dropLast()))
                current = []
            }
        }
        statements.append(current.joined(separator: "\n"))
        return statements.filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
    }

    /// Brings the database to the newest schema, on `connection`, under the advisory lock.
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SELECT pg_advisory_lock(\(lockKey))", logger: logger)
        do {
            // Made only when missing: a user allowed to read and write the tables but not to make
            // any (the schema set up by its owner) runs a database that is up to date.
            var exists = false
            for try await found in try await connection.query(
                "SELECT to_regclass('diary_migration') IS NOT NULL", logger: logger).decode(Bool.self) {
                exists = found
            }
            if !exists {
                try await connection.query("""
                    CREATE TABLE IF NOT EXISTS diary_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                    """, logger: logger)
            }
            var applied = Set<String>()
            for try await name in try await connection.query("SELECT name FROM diary_migration", logger: logger).decode(String.self) {
                applied.insert(name)
            }
            let known = Set(all.map(\.name))
            if let unknown = applied.subtracting(known).sorted().first {
                throw PostgresFailure(kind: .unavailable, "This database was set up by a newer version of Diary (it has migration \(unknown)): update Diary to use it. It was left untouched.")
            }
            // Each in a transaction of its own (postgres-nio's: rolled back if any of it fails); its
            // error is unwrapped by `PostgresFailure.translating` in `PostgresStorage.open`.
            for migration in all where !applied.contains(migration.name) {
                try await connection.withTransaction(logger: logger) { connection in
                    for statement in statements(of: migration.sql) {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await afterward[migration.name]?(connection, logger)
                    try await connection.query("INSERT INTO diary_migration (name) VALUES (\(migration.name))", logger: logger)
                }
            }
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
            throw error
        }
        try await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
    }
}
