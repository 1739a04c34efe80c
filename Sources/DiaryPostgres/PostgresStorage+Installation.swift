import DiaryCore
import Foundation
import Logging
import PostgresNIO

extension PostgresStorage {
    /// One repeatable-read transaction: every table as of one moment, whatever other instances
    /// write meanwhile.
    public func readInstallation() async throws -> Installation {
        try await database.withTransaction(isolation: .snapshot) { [logger = database.logger] connection in
            var accounts: [Installation.Account] = []
            let users = try await connection.query(
                "SELECT id, name, name_key, password_hash, created_at FROM diary_user ORDER BY id", logger: logger)
            for try await (id, name, key, hash, created) in users.decode((Int64, String, String?, String, Int64).self) {
                accounts.append(Installation.Account(id: UserID(rawValue: id), name: name, nameKey: key, passwordHash: hash,
                                                     createdAt: Date(millisecondsSince1970: created)))
            }
            var tokens: [Installation.Token] = []
            let rows = try await connection.query(
                "SELECT user_id, name, token_hash, created_at, last_used_at FROM access_token ORDER BY id", logger: logger)
            for try await (user, name, hash, created, lastUsed) in rows.decode((Int64, String, String, Int64, Int64?).self) {
                tokens.append(Installation.Token(user: UserID(rawValue: user), name: name, tokenHash: hash,
                                                 createdAt: Date(millisecondsSince1970: created),
                                                 lastUsedAt: lastUsed.map(Date.init(millisecondsSince1970:))))
            }
            var entries: [UserID: [Entry]] = [:]
            let entryRows = try await connection.query(
                "SELECT owner_id, \(unescaped: PostgresEntryRow.columns) FROM entry ORDER BY owner_id, seq", logger: logger)
            for try await row in entryRows {
                let (owner, found) = try PostgresEntryRow.owned(row)
                entries[owner, default: []].append(found.entry)
            }
            var photos: [UserID: [Installation.Photo]] = [:]
            let photoRows = try await connection.query("""
                SELECT owner_id, id, format, width, height, byte_count, stored_at, thumbnail_format, thumbnail_width, thumbnail_height,
                    thumbnail
                FROM photo ORDER BY owner_id, id
                """, logger: logger)
            var found: [(UserID, StoredPhoto, Data?)] = []
            for try await (owner, id, format, width, height, bytes, stored, thumbnailFormat, thumbnailWidth, thumbnailHeight, thumbnail)
                in photoRows.decode((Int64, String, String, Int32, Int32, Int64, Int64, String?, Int32?, Int32?, ByteBuffer?).self) {
                guard let id = PhotoID(id), let format = PhotoFormat(rawValue: format) else { continue }
                let small = thumbnail.map { Data($0.readableBytesView) }
                var photo = StoredPhoto(id: id, format: format, width: Int(width), height: Int(height), byteCount: Int(bytes),
                                        storedAt: Date(millisecondsSince1970: stored))
                if let thumbnailFormat = thumbnailFormat.flatMap(PhotoFormat.init(rawValue:)) {
                    photo.thumbnail = PhotoThumbnail(format: thumbnailFormat, width: Int(thumbnailWidth ?? 0),
                                                     height: Int(thumbnailHeight ?? 0), byteCount: small?.count ?? 0)
                }
                found.append((UserID(rawValue: owner), photo, small))
            }
            for (owner, photo, small) in found {
                var bytes = Data(capacity: photo.byteCount)
                for try await part in try await connection.query("""
                    SELECT bytes FROM photo_part WHERE owner_id = \(owner.rawValue) AND photo_id = \(photo.id.hex) ORDER BY part
                    """, logger: logger).decode(ByteBuffer.self) { bytes.append(contentsOf: part.readableBytesView) }
                photos[owner, default: []].append(Installation.Photo(stored: photo, bytes: bytes, thumbnail: small))
            }
            return Installation(accounts: accounts, tokens: tokens, entries: entries, photos: photos)
        }
    }

    public func writeInstallation(_ installation: Installation) async throws {
        let location = self.location
        let moved = try await database.withTransaction { [logger = database.logger] connection in
            try await connection.query("LOCK TABLE diary_user, entry, photo IN SHARE ROW EXCLUSIVE MODE", logger: logger)
            let held = try await connection.query(
                "SELECT (SELECT count(*) FROM diary_user) + (SELECT count(*) FROM entry) + (SELECT count(*) FROM photo)", logger: logger)
            for try await count in held.decode(Int64.self) where count > 0 { throw InstallationError.notEmpty(location) }
            for account in installation.accounts {
                try await connection.query("""
                    INSERT INTO diary_user (id, name, name_key, password_hash, created_at) OVERRIDING SYSTEM VALUE
                    VALUES (\(account.id.rawValue), \(account.name), \(account.nameKey), \(account.passwordHash), \(account.createdAt.millisecondsSince1970))
                    """, logger: logger)
            }
            // Accounts made later are numbered after the copied ones.
            try await connection.query(
                "SELECT setval(pg_get_serial_sequence('diary_user', 'id'), GREATEST((SELECT max(id) FROM diary_user), 1))", logger: logger)
            for token in installation.tokens {
                try await connection.query("""
                    INSERT INTO access_token (user_id, name, token_hash, created_at, last_used_at)
                    VALUES (\(token.user.rawValue), \(token.name), \(token.tokenHash), \(token.createdAt.millisecondsSince1970), \(token.lastUsedAt?.millisecondsSince1970))
                    """, logger: logger)
            }
            for (owner, photos) in installation.photos {
                for photo in photos {
                    try await PostgresPhotoRows.insert(photo.stored, content: photo.bytes, owner: owner, connection, logger)
                    if let thumbnail = photo.stored.thumbnail, let bytes = photo.thumbnail {
                        try await PostgresPhotoRows.setThumbnail(thumbnail, bytes: bytes, of: photo.stored.id, owner: owner, connection, logger)
                    }
                }
            }
            // A copy keeps the entries as they were, even one naming a photo its diary lost before
            // entries could only name photos held (the trigger of v9-photos-held checks nothing here).
            try await connection.query("SET LOCAL diary.copying = 'on'", logger: logger)
            var moved: [(UserID, Int64)] = []
            for (owner, entries) in installation.entries.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                for entry in entries { try await PostgresEntryRow.insert(entry, owner: owner, connection, logger) }
                moved.append((owner, try await ChangeCount.moved(owner, connection, logger)))
            }
            let counted = try await connection.query("""
                SELECT (SELECT count(*) FROM diary_user), (SELECT count(*) FROM access_token), (SELECT count(*) FROM entry),
                       (SELECT count(*) FROM entry WHERE deleted_at IS NOT NULL), (SELECT count(*) FROM photo)
                """, logger: logger)
            for try await (accounts, tokens, entries, trashed, photos) in counted.decode((Int64, Int64, Int64, Int64, Int64).self) {
                let found = Installation.Counts(accounts: Int(accounts), tokens: Int(tokens), entries: Int(entries), trashed: Int(trashed),
                                                photos: Int(photos))
                guard found == installation.counts else {
                    throw InstallationError.countsDiffer(expected: installation.counts, found: found)
                }
            }
            return moved
        }
        for (owner, count) in moved { database.feed.wrote(owner, count: count) }  // committed now
        // Statistics for the planner now, not when autovacuum comes round: without them, a search
        // on a copied diary of 100,000 entries took ten times as long. The vacuum marks the new
        // rows as seen by all and merges the search index's pending words, work that autovacuum
        // would otherwise do while the first instance serves. The copy is committed already: if
        // this fails (a statement timeout on a big diary), the copy stands, and says so.
        do {
            try await database.withConnection { [logger = database.logger] connection in
                try await connection.query("VACUUM (ANALYZE) diary_user, access_token, entry, entry_tag", logger: logger)
            }
        } catch {
            database.logger.warning("""
                The copy is complete, but tidying it afterwards did not finish (\(String(describing: error))): \
                run VACUUM ANALYZE on the database, or let autovacuum do it.
                """)
        }
    }
}
