import DiaryCore
import Foundation
import GRDB

extension SQLiteStorage {
    /// One read transaction: a WAL snapshot, whatever writers do meanwhile.
    public func readInstallation() async throws -> Installation {
        try await database.read { db in
            let accounts = try Row.fetchAll(db, sql: "SELECT id, name, name_key, password_hash, created_at FROM user ORDER BY id").map { row in
                Installation.Account(id: UserID(rawValue: row["id"]), name: row["name"], nameKey: row["name_key"],
                                     passwordHash: row["password_hash"], createdAt: Date(millisecondsSince1970: row["created_at"]))
            }
            let tokens = try Row.fetchAll(db, sql: "SELECT user_id, name, token_hash, created_at, last_used_at FROM access_token ORDER BY id").map { row in
                Installation.Token(user: UserID(rawValue: row["user_id"]), name: row["name"], tokenHash: row["token_hash"],
                                   createdAt: Date(millisecondsSince1970: row["created_at"]),
                                   lastUsedAt: (row["last_used_at"] as Int64?).map(Date.init(millisecondsSince1970:)))
            }
            var entries: [UserID: [Entry]] = [:]
            for owner in try Int64.fetchAll(db, sql: "SELECT DISTINCT owner_id FROM entry ORDER BY owner_id") {
                // Read from a cursor: a copied row would have lost what follows a NUL in the text.
                let rows = try Row.fetchCursor(db, sql: "SELECT \(SQLiteEntryRow.columns) FROM entry WHERE owner_id = ? ORDER BY seq", arguments: [owner])
                var diary: [Entry] = []
                while let row = try rows.next() { diary.append(SQLiteEntryRow(row).entry) }
                entries[UserID(rawValue: owner)] = diary
            }
            var photos: [UserID: [Installation.Photo]] = [:]
            let photoRows = try Row.fetchAll(db, sql: """
                SELECT owner_id, \(SQLitePhotoRows.columns), thumbnail FROM photo ORDER BY owner_id, id
                """)
            for row in photoRows {
                guard var stored = SQLitePhotoRows.photo(row, at: 1) else { continue }
                let owner: Int64 = row[0]
                let thumbnail: Data? = row[10]
                stored.thumbnail?.byteCount = thumbnail?.count ?? 0
                var bytes = Data(capacity: stored.byteCount)
                let parts = try Data.fetchCursor(db, sql: "SELECT bytes FROM photo_part WHERE owner_id = ? AND photo_id = ? ORDER BY part",
                                                 arguments: [owner, stored.id.hex])
                while let part = try parts.next() { bytes.append(part) }
                photos[UserID(rawValue: owner), default: []].append(Installation.Photo(stored: stored, bytes: bytes, thumbnail: thumbnail))
            }
            return Installation(accounts: accounts, tokens: tokens, entries: entries, photos: photos)
        }
    }

    public func writeInstallation(_ installation: Installation) async throws {
        let location = self.location
        try await database.write { [index = database.searchIndex] db in
            let held = try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM user) + (SELECT count(*) FROM entry) + (SELECT count(*) FROM photo)") ?? 0
            guard held == 0 else { throw InstallationError.notEmpty(location) }
            for account in installation.accounts {
                try db.execute(sql: "INSERT INTO user (id, name, name_key, password_hash, created_at) VALUES (?, ?, ?, ?, ?)",
                               arguments: [account.id.rawValue, account.name, account.nameKey, account.passwordHash,
                                           account.createdAt.millisecondsSince1970])
            }
            for token in installation.tokens {
                try db.execute(sql: "INSERT INTO access_token (user_id, name, token_hash, created_at, last_used_at) VALUES (?, ?, ?, ?, ?)",
                               arguments: [token.user.rawValue, token.name, token.tokenHash, token.createdAt.millisecondsSince1970,
                                           token.lastUsedAt?.millisecondsSince1970])
            }
            for (owner, photos) in installation.photos {
                for photo in photos {
                    try SQLitePhotoRows.insert(photo.stored, content: photo.bytes, owner: owner, db)
                    if let thumbnail = photo.stored.thumbnail, let bytes = photo.thumbnail {
                        try SQLitePhotoRows.setThumbnail(thumbnail, bytes: bytes, of: photo.stored.id, owner: owner, db)
                    }
                }
            }
            // A copy keeps the entries as they were, even one naming a photo its diary lost before
            // entries could only name photos held: it checks nothing.
            for (owner, entries) in installation.entries.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                for entry in entries { try SQLiteEntryRow.insert(entry, owner: owner, index: index, checkingPhotos: false, db) }
                try ChangeCount.moved(owner, db)
            }
            let found = Installation.Counts(
                accounts: try Int.fetchOne(db, sql: "SELECT count(*) FROM user") ?? 0,
                tokens: try Int.fetchOne(db, sql: "SELECT count(*) FROM access_token") ?? 0,
                entries: try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") ?? 0,
                trashed: try Int.fetchOne(db, sql: "SELECT count(*) FROM entry WHERE deleted_at IS NOT NULL") ?? 0,
                photos: try Int.fetchOne(db, sql: "SELECT count(*) FROM photo") ?? 0)
            guard found == installation.counts else { throw InstallationError.countsDiffer(expected: installation.counts, found: found) }
        }
    }
}
