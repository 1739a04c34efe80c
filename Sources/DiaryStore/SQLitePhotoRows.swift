import DiaryCore
import Foundation
import GRDB

/// One user's photos in a `SQLiteDatabase` (tables `photo` and `photo_part`, see migration
/// v10), every query scoped to their owner.
public struct SQLitePhotoRows: PhotoRows {
    public let database: SQLiteDatabase
    public let owner: UserID

    public init(database: SQLiteDatabase, owner: UserID) {
        self.database = database
        self.owner = owner
    }

    static let columns = "id, format, width, height, byte_count, stored_at, thumbnail_format, thumbnail_width, thumbnail_height"

    /// A photo from `columns`, read from position `at` on.
    static func photo(_ row: Row, at start: Int = 0) -> StoredPhoto? {
        guard let id = PhotoID(row[start] as String), let format = PhotoFormat(rawValue: row[start + 1]) else { return nil }
        var thumbnail: PhotoThumbnail?
        if let format = (row[start + 6] as String?).flatMap(PhotoFormat.init(rawValue:)) {
            thumbnail = PhotoThumbnail(format: format, width: row[start + 7], height: row[start + 8], byteCount: 0)
        }
        return StoredPhoto(id: id, format: format, width: row[start + 2], height: row[start + 3], byteCount: row[start + 4],
                           storedAt: Date(millisecondsSince1970: row[start + 5]), thumbnail: thumbnail)
    }

    public func photo(id: PhotoID) async throws -> StoredPhoto? {
        try await photos(ids: [id])[id]
    }

    public func photos(ids: [PhotoID]) async throws -> [PhotoID: StoredPhoto] {
        guard !ids.isEmpty else { return [:] }
        return try await database.read { [owner] db in
            let statement = try db.cachedStatement(sql: """
                SELECT \(Self.columns), length(thumbnail) FROM photo WHERE owner_id = ? AND id = ?
                """)
            var found: [PhotoID: StoredPhoto] = [:]
            for id in Set(ids) {
                guard let row = try Row.fetchOne(statement, arguments: [owner.rawValue, id.hex]), var photo = Self.photo(row) else { continue }
                photo.thumbnail?.byteCount = row[9] ?? 0
                found[id] = photo
            }
            return found
        }
    }

    /// SQLite has one writer: nothing comes between the quota's count and the write.
    public func store(_ photo: StoredPhoto, content: any PhotoContent,
                      allowing: (@Sendable (Int64) throws -> Void)?) async throws -> Bool {
        try await database.write { [owner] db in
            let moved = try db.cachedStatement(sql: "UPDATE photo SET stored_at = ? WHERE owner_id = ? AND id = ?")
            try moved.execute(arguments: [photo.storedAt.millisecondsSince1970, owner.rawValue, photo.id.hex])
            if db.changesCount > 0 { return false }
            try allowing?(Self.storedBytes(of: owner, db))
            try Self.insert(photo, content: content, owner: owner, db)
            return true
        }
    }

    /// Writes a photo's row and its parts.
    static func insert(_ photo: StoredPhoto, content: any PhotoContent, owner: UserID, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO photo (owner_id, id, format, width, height, byte_count, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [owner.rawValue, photo.id.hex, photo.format.rawValue, photo.width, photo.height,
                                     photo.byteCount, photo.storedAt.millisecondsSince1970])
        let part = try db.cachedStatement(sql: "INSERT INTO photo_part (owner_id, photo_id, part, bytes) VALUES (?, ?, ?, ?)")
        for index in 0..<StoredPhoto.partCount(content.byteCount) {
            let start = index * StoredPhoto.partSize
            let bytes = content.bytes(in: start..<min(start + StoredPhoto.partSize, content.byteCount))
            try part.execute(arguments: [owner.rawValue, photo.id.hex, index, bytes])
        }
    }

    public func storeThumbnail(_ thumbnail: PhotoThumbnail, bytes: Data, of id: PhotoID,
                               allowing: (@Sendable (Int64) throws -> Void)?) async throws -> Bool {
        try await database.write { [owner] db in
            if let allowing {
                let current = try Int64.fetchOne(db, sql: "SELECT coalesce(length(thumbnail), 0) FROM photo WHERE owner_id = ? AND id = ?",
                                                 arguments: [owner.rawValue, id.hex])
                guard let current else { return false }
                try allowing(Self.storedBytes(of: owner, db) - current)
            }
            return try Self.setThumbnail(thumbnail, bytes: bytes, of: id, owner: owner, db)
        }
    }

    @discardableResult
    static func setThumbnail(_ thumbnail: PhotoThumbnail, bytes: Data, of id: PhotoID, owner: UserID, _ db: Database) throws -> Bool {
        try db.cachedStatement(sql: """
            UPDATE photo SET thumbnail_format = ?, thumbnail_width = ?, thumbnail_height = ?, thumbnail = ?
            WHERE owner_id = ? AND id = ?
            """).execute(arguments: [thumbnail.format.rawValue, thumbnail.width, thumbnail.height, bytes,
                                     owner.rawValue, id.hex])
        return db.changesCount > 0
    }

    public func part(_ index: Int, of id: PhotoID) async throws -> Data? {
        try await database.read { [owner] db in
            try Data.fetchOne(db.cachedStatement(sql: "SELECT bytes FROM photo_part WHERE owner_id = ? AND photo_id = ? AND part = ?"),
                              arguments: [owner.rawValue, id.hex, index])
        }
    }

    public func thumbnailBytes(of id: PhotoID) async throws -> Data? {
        try await database.read { [owner] db in
            try Data.fetchOne(db.cachedStatement(sql: "SELECT thumbnail FROM photo WHERE owner_id = ? AND id = ?"),
                              arguments: [owner.rawValue, id.hex])
        }
    }

    public func storedBytes() async throws -> Int64 {
        try await database.read { [owner] db in try Self.storedBytes(of: owner, db) }
    }

    static func storedBytes(of owner: UserID, _ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT coalesce(sum(byte_count + coalesce(length(thumbnail), 0)), 0) FROM photo WHERE owner_id = ?",
                           arguments: [owner.rawValue]) ?? 0
    }

    public func removeUnused(storedBefore moment: Date, including: Set<PhotoID>) async throws -> Int {
        try await database.write { [owner] db in try Self.removeUnused(of: owner, storedBefore: moment, including: including, db) }
    }

    /// Deletes `owner`'s photos stored before `moment`, or among `including`, that no entry
    /// (nor the trash) holds.
    static func removeUnused(of owner: UserID, storedBefore moment: Date, including: Set<PhotoID> = [], _ db: Database) throws -> Int {
        var candidates = try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM photo WHERE owner_id = ? AND stored_at < ?"),
                                             arguments: [owner.rawValue, moment.millisecondsSince1970])
        candidates += including.map(\.hex).filter { !candidates.contains($0) }
        guard !candidates.isEmpty else { return 0 }
        var held = Set<PhotoID>()
        let rows = try String.fetchCursor(db.cachedStatement(sql: "SELECT photos FROM entry WHERE owner_id = ? AND photos <> ''"),
                                          arguments: [owner.rawValue])
        while let text = try rows.next() { held.formUnion([EntryPhoto](storedText: text).map(\.id)) }
        var removed = 0
        for id in candidates {
            if let photo = PhotoID(id), held.contains(photo) { continue }
            try db.cachedStatement(sql: "DELETE FROM photo_part WHERE owner_id = ? AND photo_id = ?").execute(arguments: [owner.rawValue, id])
            try db.cachedStatement(sql: "DELETE FROM photo WHERE owner_id = ? AND id = ?").execute(arguments: [owner.rawValue, id])
            removed += db.changesCount
        }
        return removed
    }
}
