import DiaryCore
import Foundation
import Testing

/// Photos, the same on every backend: kept whole, a part at a time, once per diary, each
/// diary's its own; held by entries as part of their version; let go when nothing holds them.
@Suite("Every store keeps photos the same way")
struct PhotoRowsConformanceTests {
    /// Bytes that stand for a photo (the rows never look inside), named as `DiaryPhotos` names them.
    static func photo(bytes count: Int, seed: UInt8 = 1, at moment: Date = Date()) -> (StoredPhoto, Data) {
        var generator = SeededBytes(seed: seed)
        let data = Data((0..<count).map { _ in generator.next() })
        // A name as unique as the bytes (the rows never check it is their SHA-256).
        var name = SeededBytes(seed: seed &+ 101)
        let id = PhotoID(digest: withUnsafeBytes(of: count.bigEndian, Array.init) + (0..<24).map { _ in name.next() })
        return (StoredPhoto(id: id, format: .jpeg, width: 4000, height: 3000, byteCount: count, storedAt: moment), data)
    }

    @Test("A photo reads back byte for byte, a part at a time, however many parts it takes", arguments: StoreBackend.allCases)
    func partsReadBack(backend: StoreBackend) async throws {
        let rows = try await backend.makeStorage().photoRows(of: .localOwner)
        for count in [1, StoredPhoto.partSize, StoredPhoto.partSize + 1, 3 * StoredPhoto.partSize - 7] {
            let (photo, data) = Self.photo(bytes: count, seed: UInt8(count % 251))
            #expect(try await rows.store(photo, content: data))
            var read = Data()
            for index in 0..<StoredPhoto.partCount(count) {
                read.append(try #require(try await rows.part(index, of: photo.id)))
            }
            #expect(read == data)
            #expect(try await rows.part(StoredPhoto.partCount(count), of: photo.id) == nil)
            #expect(try await rows.photo(id: photo.id) == photo)
        }
    }

    @Test("The same photo again is one copy; its stored moment moves; the quota counts it once", arguments: StoreBackend.allCases)
    func oneCopy(backend: StoreBackend) async throws {
        let rows = try await backend.makeStorage().photoRows(of: .localOwner)
        let earlier = Date(timeIntervalSince1970: 1_700_000_000)
        let (photo, data) = Self.photo(bytes: 1_000, at: earlier)
        #expect(try await rows.store(photo, content: data))
        var again = photo
        again.storedAt = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(try await rows.store(again, content: data) == false)
        #expect(try await rows.photo(id: photo.id)?.storedAt == again.storedAt)
        #expect(try await rows.storedBytes() == 1_000)
        #expect(try await rows.photos(ids: [photo.id, photo.id, PhotoID(String(repeating: "0", count: 64))!]).count == 1)
    }

    @Test("A thumbnail is kept beside its photo, and only for a photo there is", arguments: StoreBackend.allCases)
    func thumbnails(backend: StoreBackend) async throws {
        let rows = try await backend.makeStorage().photoRows(of: .localOwner)
        let (photo, data) = Self.photo(bytes: 5_000)
        _ = try await rows.store(photo, content: data)
        #expect(try await rows.thumbnailBytes(of: photo.id) == nil)
        let small = Data(repeating: 7, count: 300)
        let thumbnail = PhotoThumbnail(format: .webp, width: 256, height: 192, byteCount: 300)
        #expect(try await rows.storeThumbnail(thumbnail, bytes: small, of: photo.id))
        #expect(try await rows.thumbnailBytes(of: photo.id) == small)
        #expect(try await rows.photo(id: photo.id)?.thumbnail == thumbnail)
        #expect(try await rows.storedBytes() == 5_300)
        let (other, _) = Self.photo(bytes: 10, seed: 9)
        #expect(try await rows.storeThumbnail(thumbnail, bytes: small, of: other.id) == false)
    }

    @Test("Each diary keeps its own photos: the same bytes in two diaries are two copies", arguments: StoreBackend.allCases)
    func perDiary(backend: StoreBackend) async throws {
        let storage = try await backend.makeStorage()
        let mine = storage.photoRows(of: UserID(rawValue: 1)), theirs = storage.photoRows(of: UserID(rawValue: 2))
        let (photo, data) = Self.photo(bytes: 2_000)
        _ = try await mine.store(photo, content: data)
        #expect(try await theirs.photo(id: photo.id) == nil)
        #expect(try await theirs.part(0, of: photo.id) == nil)
        #expect(try await theirs.store(photo, content: data), "new in their diary")
        #expect(try await theirs.removeUnused(storedBefore: .distantFuture, including: []) == 1)
        #expect(try await mine.part(0, of: photo.id) == data, "theirs went, mine stays")
    }

    @Test("An entry's photos are part of it: read back everywhere, part of its version", arguments: StoreBackend.allCases)
    func entriesHoldPhotos(backend: StoreBackend) async throws {
        let storage = try await backend.makeStorage()
        let store = storage.diary(of: .localOwner), rows = storage.photoRows(of: .localOwner)
        let (one, oneData) = Self.photo(bytes: 100, seed: 1)
        let (two, twoData) = Self.photo(bytes: 200, seed: 2)
        _ = try await rows.store(one, content: oneData)
        _ = try await rows.store(two, content: twoData)
        let entry = try await store.create(try EntryText(title: "", body: "", allowBlank: true), id: UUID(),
                                           photos: [EntryPhoto(id: one.id, caption: "바다 \u{0} NUL"), EntryPhoto(id: two.id)]).entry
        #expect(entry.photos == [EntryPhoto(id: one.id, caption: "바다 \u{0} NUL", width: 4000, height: 3000),
                                 EntryPhoto(id: two.id, width: 4000, height: 3000)])
        #expect(try await store.entry(id: entry.id) == entry)
        #expect(try await store.list(after: nil, limit: 5).entries.first?.photo == one.id)
        #expect(try await store.export(after: nil, limit: 5).entries == [entry])
        let reordered = try await store.edit(id: entry.id, try EntryEdit(photos: [EntryPhoto(id: two.id, caption: "x")]), expecting: 1)
        #expect(reordered.version == 2 && reordered.photos.map(\.id) == [two.id])
        await #expect(throws: EntryError.conflict(expected: 1, current: reordered)) {
            try await store.edit(id: entry.id, try EntryEdit(photos: []), expecting: 1)
        }
        await #expect(throws: EntryError.blank) {
            try await store.edit(id: entry.id, try EntryEdit(photos: []), expecting: 2)
        }
        let unknown = PhotoID(String(repeating: "a", count: 64))!
        await #expect(throws: EntryError.photoNotStored(unknown.hex)) {
            try await store.edit(id: entry.id, try EntryEdit(photos: [EntryPhoto(id: unknown)]), expecting: 2)
        }
        let trashed = try await store.moveToTrash(id: entry.id)
        #expect(trashed.photos == reordered.photos)
        #expect(try await store.trash(after: nil, limit: 5).entries.first?.photo == two.id)
    }

    @Test("Photos no entry holds go: at once those of an entry deleted for good, others after the grace", arguments: StoreBackend.allCases)
    func unusedGo(backend: StoreBackend) async throws {
        let storage = try await backend.makeStorage()
        let store = storage.diary(of: .localOwner), rows = storage.photoRows(of: .localOwner)
        let longAgo = Date().addingTimeInterval(-DiaryPhotos.unusedGrace - 3_600)
        let (held, heldData) = Self.photo(bytes: 100, seed: 1, at: longAgo)
        let (trashedOnly, trashedData) = Self.photo(bytes: 100, seed: 2, at: longAgo)
        let (oldUnused, oldData) = Self.photo(bytes: 100, seed: 3, at: longAgo)
        let (newUnused, newData) = Self.photo(bytes: 100, seed: 4)
        for (photo, data) in [(held, heldData), (trashedOnly, trashedData), (oldUnused, oldData), (newUnused, newData)] {
            _ = try await rows.store(photo, content: data)
        }
        let text = try EntryText(title: "t", body: "")
        _ = try await store.create(text, id: UUID(), photos: [EntryPhoto(id: held.id)]).entry
        let doomed = try await store.create(text, id: UUID(), photos: [EntryPhoto(id: trashedOnly.id), EntryPhoto(id: held.id)]).entry
        _ = try await store.moveToTrash(id: doomed.id)
        try await store.removeUnusedPhotos()
        #expect(try await rows.photo(id: oldUnused.id) == nil, "unused for longer than the grace")
        #expect(try await rows.photo(id: newUnused.id) != nil, "sent ahead of its entry, perhaps")
        #expect(try await rows.photo(id: trashedOnly.id) != nil, "the trash holds it")
        try await store.purge(id: doomed.id)
        #expect(try await rows.photo(id: trashedOnly.id) == nil)
        #expect(try await rows.part(0, of: trashedOnly.id) == nil, "its bytes went with it")
        #expect(try await rows.photo(id: held.id) != nil, "another entry holds it")
    }

    @Test("The server's trash expiry lets go of unused photos in every diary", arguments: StoreBackend.allCases)
    func expiry(backend: StoreBackend) async throws {
        let storage = try await backend.makeStorage()
        let longAgo = Date().addingTimeInterval(-DiaryPhotos.unusedGrace - 60)
        for owner in [UserID(rawValue: 1), UserID(rawValue: 2)] {
            let (photo, data) = Self.photo(bytes: 50, seed: UInt8(owner.rawValue), at: longAgo)
            _ = try await storage.photoRows(of: owner).store(photo, content: data)
        }
        _ = try await storage.emptyTrashes(deletedBefore: Date())
        for owner in [UserID(rawValue: 1), UserID(rawValue: 2)] {
            #expect(try await storage.photoRows(of: owner).storedBytes() == 0)
        }
    }

    @Test("Two instances storing the same photo at once keep one copy", arguments: StoreBackend.allCases)
    func together(backend: StoreBackend) async throws {
        let (one, two) = try await backend.makeTwoInstances()
        let (photo, data) = Self.photo(bytes: StoredPhoto.partSize * 2 + 5)
        async let first = one.photoRows(of: .localOwner).store(photo, content: data)
        async let second = two.photoRows(of: .localOwner).store(photo, content: data)
        let results = try await [first, second]
        #expect(results.filter { $0 }.count == 1)
        #expect(try await one.photoRows(of: .localOwner).storedBytes() == Int64(data.count))
    }
}

/// A small, seeded generator of bytes (xorshift): the same "photo" every run.
struct SeededBytes {
    var state: UInt64

    init(seed: UInt8) { state = 0x9E37_79B9_7F4A_7C15 &* UInt64(seed + 1) }

    mutating func next() -> UInt8 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state >> 24)
    }
}
