import DiaryCore
import Foundation
import Logging
import PostgresNIO

/// One user's photos in PostgreSQL (tables `photo` and `photo_part`, migration v6-photos),
/// every query scoped to their owner.
struct PostgresPhotoRows: PhotoRows {
    let database: PostgresDatabase
    let owner: UserID

    var logger: Logger { database.logger }

    func photo(id: PhotoID) async throws -> StoredPhoto? {
        try await photos(ids: [id])[id]
    }

    func photos(ids: [PhotoID]) async throws -> [PhotoID: StoredPhoto] {
        guard !ids.isEmpty else { return [:] }
        let names = Array(Set(ids.map(\.hex)))
        return try await database.withConnection { [owner, logger] connection in
            let rows = try await connection.query("""
                SELECT id, format, width, height, byte_count, stored_at, thumbnail_format, thumbnail_width, thumbnail_height,
                    length(thumbnail)
                FROM photo WHERE owner_id = \(owner.rawValue) AND id = ANY(\(names)::text[])
                """, logger: logger)
            var found: [PhotoID: StoredPhoto] = [:]
            for try await (id, format, width, height, bytes, stored, thumbnailFormat, thumbnailWidth, thumbnailHeight, thumbnailBytes)
                in rows.decode((String, String, Int32, Int32, Int64, Int64, String?, Int32?, Int32?, Int32?).self) {
                guard let id = PhotoID(id), let format = PhotoFormat(rawValue: format) else { continue }
                var thumbnail: PhotoThumbnail?
                if let thumbnailFormat = thumbnailFormat.flatMap(PhotoFormat.init(rawValue:)) {
                    thumbnail = PhotoThumbnail(format: thumbnailFormat, width: Int(thumbnailWidth ?? 0), height: Int(thumbnailHeight ?? 0),
                                               byteCount: Int(thumbnailBytes ?? 0))
                }
                found[id] = StoredPhoto(id: id, format: format, width: Int(width), height: Int(height), byteCount: Int(bytes),
                                        storedAt: Date(millisecondsSince1970: stored), thumbnail: thumbnail)
            }
            return found
        }
    }

    /// One transaction. Two instances storing the same photo at once: the second's insert waits
    /// for the first's to commit, then only moves `stored_at`. A quota's count is taken under the
    /// diary's quota lock (`lockQuota`), so stores checked at once are counted one after another.
    func store(_ photo: StoredPhoto, content: any PhotoContent,
               allowing: (@Sendable (Int64) throws -> Void)?) async throws -> Bool {
        try await database.withTransaction { [owner, logger] connection in
            if allowing != nil { try await Self.lockQuota(of: owner, connection, logger) }
            let rows = try await connection.query("""
                INSERT INTO photo (owner_id, id, format, width, height, byte_count, stored_at)
                VALUES (\(owner.rawValue), \(photo.id.hex), \(photo.format.rawValue), \(Int32(clamping: photo.width)),
                        \(Int32(clamping: photo.height)), \(Int64(photo.byteCount)), \(photo.storedAt.millisecondsSince1970))
                ON CONFLICT (owner_id, id) DO UPDATE SET stored_at = excluded.stored_at
                RETURNING xmax = 0
                """, logger: logger)
            var inserted = false
            for try await new in rows.decode(Bool.self) { inserted = new }
            guard inserted else { return false }
            if let allowing { try allowing(try await Self.storedBytes(of: owner, besides: photo.id, connection, logger)) }
            try await Self.insertParts(of: photo, content: content, owner: owner, connection, logger)
            return true
        }
    }

    /// Writes a photo's row and its parts (a copy into an empty database).
    static func insert(_ photo: StoredPhoto, content: any PhotoContent, owner: UserID, _ connection: PostgresConnection,
                       _ logger: Logger) async throws {
        try await connection.query("""
            INSERT INTO photo (owner_id, id, format, width, height, byte_count, stored_at)
            VALUES (\(owner.rawValue), \(photo.id.hex), \(photo.format.rawValue), \(Int32(clamping: photo.width)),
                    \(Int32(clamping: photo.height)), \(Int64(photo.byteCount)), \(photo.storedAt.millisecondsSince1970))
            """, logger: logger)
        try await insertParts(of: photo, content: content, owner: owner, connection, logger)
    }

    private static func insertParts(of photo: StoredPhoto, content: any PhotoContent, owner: UserID,
                                    _ connection: PostgresConnection, _ logger: Logger) async throws {
        for index in 0..<StoredPhoto.partCount(content.byteCount) {
            let start = index * StoredPhoto.partSize
            let bytes = ByteBuffer(bytes: content.bytes(in: start..<min(start + StoredPhoto.partSize, content.byteCount)))
            try await connection.query("""
                INSERT INTO photo_part (owner_id, photo_id, part, bytes) VALUES (\(owner.rawValue), \(photo.id.hex), \(Int32(index)), \(bytes))
                """, logger: logger)
        }
    }

    func storeThumbnail(_ thumbnail: PhotoThumbnail, bytes: Data, of id: PhotoID,
                        allowing: (@Sendable (Int64) throws -> Void)?) async throws -> Bool {
        guard let allowing else {
            return try await database.withConnection { [owner, logger] connection in
                try await Self.setThumbnail(thumbnail, bytes: bytes, of: id, owner: owner, connection, logger)
            }
        }
        return try await database.withTransaction { [owner, logger] connection in
            try await Self.lockQuota(of: owner, connection, logger)
            var others: Int64?
            for try await total in try await connection.query("""
                SELECT ((SELECT coalesce(sum(byte_count + coalesce(length(thumbnail), 0)), 0) FROM photo WHERE owner_id = \(owner.rawValue))
                    - coalesce(length(thumbnail), 0))::int8
                FROM photo WHERE owner_id = \(owner.rawValue) AND id = \(id.hex)
                """, logger: logger).decode(Int64.self) { others = total }
            guard let others else { return false }
            try allowing(others)
            return try await Self.setThumbnail(thumbnail, bytes: bytes, of: id, owner: owner, connection, logger)
        }
    }

    /// Takes the diary's quota lock until the transaction ends: an advisory lock of the two-key
    /// space (apart from the one-key locks of migrations and imports), "diar" and the owner.
    private static func lockQuota(of owner: UserID, _ connection: PostgresConnection, _ logger: Logger) async throws {
        let key = Int32(truncatingIfNeeded: owner.rawValue)
        try await connection.query("SELECT pg_advisory_xact_lock(\(Self.quotaLockClass), \(key))", logger: logger)
    }

    /// "diar" in ASCII: the first key of every diary's quota lock.
    private static let quotaLockClass: Int32 = 0x64_69_61_72

    /// The bytes the diary's photos and thumbnails take, leaving out photo `id`.
    private static func storedBytes(of owner: UserID, besides id: PhotoID, _ connection: PostgresConnection,
                                    _ logger: Logger) async throws -> Int64 {
        for try await total in try await connection.query("""
            SELECT coalesce(sum(byte_count + coalesce(length(thumbnail), 0)), 0)::int8 FROM photo
            WHERE owner_id = \(owner.rawValue) AND id <> \(id.hex)
            """, logger: logger).decode(Int64.self) { return total }
        return 0
    }

    @discardableResult
    static func setThumbnail(_ thumbnail: PhotoThumbnail, bytes: Data, of id: PhotoID, owner: UserID,
                             _ connection: PostgresConnection, _ logger: Logger) async throws -> Bool {
        let rows = try await connection.query("""
            UPDATE photo SET thumbnail_format = \(thumbnail.format.rawValue), thumbnail_width = \(Int32(clamping: thumbnail.width)),
                thumbnail_height = \(Int32(clamping: thumbnail.height)), thumbnail = \(ByteBuffer(bytes: bytes))
            WHERE owner_id = \(owner.rawValue) AND id = \(id.hex) RETURNING 1
            """, logger: logger)
        for try await _ in rows { return true }
        return false
    }

    func part(_ index: Int, of id: PhotoID) async throws -> Data? {
        try await database.withConnection { [owner, logger] connection in
            let rows = try await connection.query("""
                SELECT bytes FROM photo_part WHERE owner_id = \(owner.rawValue) AND photo_id = \(id.hex) AND part = \(Int32(clamping: index))
                """, logger: logger)
            for try await bytes in rows.decode(ByteBuffer.self) { return Data(bytes.readableBytesView) }
            return nil
        }
    }

    func thumbnailBytes(of id: PhotoID) async throws -> Data? {
        try await database.withConnection { [owner, logger] connection in
            let rows = try await connection.query("""
                SELECT thumbnail FROM photo WHERE owner_id = \(owner.rawValue) AND id = \(id.hex) AND thumbnail IS NOT NULL
                """, logger: logger)
            for try await bytes in rows.decode(ByteBuffer.self) { return Data(bytes.readableBytesView) }
            return nil
        }
    }

    func storedBytes() async throws -> Int64 {
        try await database.withConnection { [owner, logger] connection in
            let rows = try await connection.query("""
                SELECT coalesce(sum(byte_count + coalesce(length(thumbnail), 0)), 0)::int8 FROM photo WHERE owner_id = \(owner.rawValue)
                """, logger: logger)
            for try await total in rows.decode(Int64.self) { return total }
            return 0
        }
    }

    func removeUnused(storedBefore moment: Date, including: Set<PhotoID>) async throws -> Int {
        try await database.withTransaction { [owner, logger] connection in
            try await Self.removeUnused(of: owner, storedBefore: moment, including: including, connection, logger)
        }
    }

    /// Deletes `owner`'s photos stored before `moment` that no entry (nor the trash) holds. The
    /// candidates are locked first: a photo stored again meanwhile (its `stored_at` moved) is kept.
    static func removeUnused(of owner: UserID, storedBefore moment: Date, including: Set<PhotoID> = [],
                             _ connection: PostgresConnection, _ logger: Logger) async throws -> Int {
        var candidates: [String] = []
        let named = including.map(\.hex)
        for try await id in try await connection.query("""
            SELECT id FROM photo WHERE owner_id = \(owner.rawValue) AND (stored_at < \(moment.millisecondsSince1970) OR id = ANY(\(named)::text[]))
            ORDER BY id FOR UPDATE
            """, logger: logger).decode(String.self) { candidates.append(id) }
        guard !candidates.isEmpty else { return 0 }
        var held = Set<String>()
        for try await text in try await connection.query("""
            SELECT photos FROM entry WHERE owner_id = \(owner.rawValue) AND photos <> ''
            """, logger: logger).decode(String.self) {
            held.formUnion([EntryPhoto](storedText: text).map(\.id.hex))
        }
        let unused = candidates.filter { !held.contains($0) }
        guard !unused.isEmpty else { return 0 }
        try await connection.query("""
            DELETE FROM photo WHERE owner_id = \(owner.rawValue) AND id = ANY(\(unused)::text[])
            """, logger: logger)
        return unused.count
    }
}
