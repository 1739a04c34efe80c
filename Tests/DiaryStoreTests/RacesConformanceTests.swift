import DiaryCore
import DiaryPasswords
import Foundation
import Testing

/// Races between a check and a write, on every backend and across two instances of one
/// database: whatever the interleaving, no entry names a photo that is gone, no session made
/// with a changed password works, and no quota is passed by uploads that come together.
@Suite("Every store keeps its checks and its writes together")
struct RacesConformanceTests {
    // MARK: Photos deleted for good while an entry names them

    @Test("A backend refuses an entry naming a photo its diary does not hold, in the write itself", arguments: StoreBackend.allCases)
    func rowsRefuseMissingPhotos(backend: StoreBackend) async throws {
        let storage = try await backend.makeStorage()
        let store = storage.diary(of: .localOwner), rows = storage.entryRows(of: .localOwner)
        let (photo, data) = PhotoRowsConformanceTests.photo(bytes: 100)
        _ = try await storage.photoRows(of: .localOwner).store(photo, content: data)
        let holder = try await store.create(try EntryText(title: "t", body: ""), id: UUID(), photos: [EntryPhoto(id: photo.id)]).entry
        let (gone, _) = PhotoRowsConformanceTests.photo(bytes: 100, seed: 2)
        // Below `Diary`'s own check, as if the photo went between that check and the write.
        let naming = Entry(id: UUID(), title: "t", body: "", createdAt: Date(), updatedAt: Date(),
                           photos: [EntryPhoto(id: photo.id), EntryPhoto(id: gone.id)])
        await #expect(throws: EntryError.photoNotStored(gone.id.hex)) { try await rows.insert(naming) { _ in nil } }
        #expect(try await store.entry(id: naming.id) == nil)
        await #expect(throws: EntryError.photoNotStored(gone.id.hex)) {
            try await rows.change(id: holder.id) { entry in
                var changed = entry
                changed.photos.append(EntryPhoto(id: gone.id))
                try changed.advanceVersion()
                return changed
            }
        }
        await #expect(throws: EntryError.photoNotStored(gone.id.hex)) {
            try await rows.insert([naming], onlyIntoEmptyDiary: false)
        }
        #expect(try await store.entry(id: holder.id)?.photos.map(\.id) == [photo.id], "nothing of the refused change was written")
        // A change that leaves the photos alone is no check of them.
        let edited = try await store.update(id: holder.id, to: try EntryText(title: "t2", body: ""), expecting: 1)
        #expect(edited.version == 2)
    }

    @Test("A photo deleted for good while another entry is saved naming it: the entry never names a photo that is gone",
          arguments: StoreBackend.allCases)
    func purgeRacesSave(backend: StoreBackend) async throws {
        let (one, two) = try await backend.makeTwoInstances()
        let purging = one.diary(of: .localOwner), saving = two.diary(of: .localOwner)
        let purgingRows = one.entryRows(of: .localOwner), savingPhotos = two.photoRows(of: .localOwner)
        var saved = 0, refused = 0
        for round in 0..<30 {
            let (photo, data) = PhotoRowsConformanceTests.photo(bytes: 64, seed: UInt8(round))
            _ = try await savingPhotos.store(photo, content: data)
            let doomed = try await purging.create(try EntryText(title: "doomed", body: ""), id: UUID(), photos: [EntryPhoto(id: photo.id)]).entry
            // Saves start one after another, 0.3 ms apart, about when the purge does (earlier or
            // later each round), so that between them they meet it at every point.
            let purgeDelay = UInt64(round % 6) * 600_000
            async let purged: Void = {
                try await Task.sleep(nanoseconds: purgeDelay)
                switch round % 3 {
                case 0: try await purging.purge(id: doomed.id)
                case 1:
                    _ = try await purging.moveToTrash(id: doomed.id)
                    _ = try await purging.emptyTrash()
                default:
                    _ = try await purging.moveToTrash(id: doomed.id)
                    _ = try await purgingRows.emptyTrash(deletedBefore: nil)
                    try await purging.removeUnusedPhotos(including: [photo.id])
                }
            }()
            async let made = withThrowingTaskGroup(of: UUID?.self) { group in
                for save in 0..<12 {
                    group.addTask {
                        try await Task.sleep(nanoseconds: UInt64(save) * 300_000)
                        do {
                            return try await saving.create(try EntryText(title: "later", body: ""), id: UUID(),
                                                           photos: [EntryPhoto(id: photo.id)]).entry.id
                        } catch EntryError.photoNotStored {
                            return nil
                        }
                    }
                }
                return try await group.reduce(into: [UUID?]()) { $0.append($1) }
            }
            let (_, entries) = try await (purged, made)
            let held = try await savingPhotos.photo(id: photo.id) != nil
            for entry in entries {
                if let entry {
                    saved += 1
                    #expect(held, "round \(round): entry \(entry) names a photo that is gone")
                } else {
                    refused += 1
                }
            }
            if held { #expect(try await savingPhotos.part(0, of: photo.id) == data) }
        }
        #expect(saved + refused == 30 * 12)
    }

    // MARK: A password changed while a sign-in checks the old one

    /// Checks passwords as bcrypt does, slowly: a sign-in spends its time between reading the
    /// account and keeping its session, where a change of password can come.
    struct SlowPasswords: PasswordHasher {
        let bcrypt = BcryptPasswords(cost: 4)
        func hash(_ password: String) async throws -> String { try await bcrypt.hash(password) }
        func verify(_ password: String, hash: String?) async throws -> Bool {
            let matches = try await bcrypt.verify(password, hash: hash)
            try await Task.sleep(nanoseconds: 20_000_000)
            return matches
        }
    }

    @Test("A session is kept only while the password it proved is still the account's", arguments: StoreBackend.allCases)
    func sessionNeedsItsPassword(backend: StoreBackend) async throws {
        let storage = try await backend.makeStorage()
        let accounts = storage.accounts(passwords: BcryptPasswords(cost: 4))
        let mina = try await accounts.addUser(name: "mina", password: "old password")
        let (_, oldHash) = try #require(try await accounts.rows.user(named: "mina", key: "mina"))
        try await accounts.setPassword(name: "mina", password: "new password")
        #expect(try await accounts.rows.insertSession(tokenHash: "late", csrfToken: "c", user: mina.id, at: Date(), label: "",
                                                      whilePasswordHashIs: oldHash) == false)
        #expect(try await accounts.rows.session(tokenHash: "late") == nil)
        #expect(try await accounts.signIn(name: "mina", password: "old password") == nil)
        let (token, session) = try #require(try await accounts.signIn(name: "mina", password: "new password", label: "Firefox · Linux"))
        #expect(session.user == mina)
        #expect(try await accounts.session(token: token) == session)
    }

    @Test("A password changed while a sign-in checks the old one: after the change, no session made with the old one works",
          arguments: StoreBackend.allCases)
    func signInRacesPasswordChange(backend: StoreBackend) async throws {
        let (one, two) = try await backend.makeTwoInstances()
        let changing = one.accounts(passwords: BcryptPasswords(cost: 4)), signing = two.accounts(passwords: SlowPasswords())
        for round in 0..<12 {
            let old = "password \(round)", new = "password \(round + 1)"
            if round == 0 { _ = try await changing.addUser(name: "mina", password: old) }
            async let signedIn = withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<4 { group.addTask { try await signing.signIn(name: "mina", password: old)?.token } }
                return try await group.reduce(into: [String]()) { if let token = $1 { $0.append(token) } }
            }
            async let changed: Void = {
                try await Task.sleep(nanoseconds: UInt64(round % 4) * 8_000_000)
                try await changing.setPassword(name: "mina", password: new)
            }()
            let (tokens, _) = try await (signedIn, changed)
            for token in tokens {
                #expect(try await signing.session(token: token) == nil, "round \(round): a session made with the old password works")
                #expect(try await changing.session(token: token) == nil)
            }
        }
    }

    // MARK: Quotas counted in one transaction and written in another

    /// A PNG of `width` pixels whose image data takes `bytes` bytes: a real photo to `DiaryPhotos`.
    static func png(width: UInt32, bytes: Int) -> Data {
        func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in Array(type.utf8) + data {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return be32(UInt32(data.count)) + Array(type.utf8) + data + be32(~crc)
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return Data(signature + chunk("IHDR", be32(width) + be32(1) + [8, 2, 0, 0, 0])
            + chunk("IDAT", [UInt8](repeating: UInt8(width % 251), count: bytes)) + chunk("IEND", []))
    }

    @Test("Uploads at once pass no quota together, on one instance or two", arguments: StoreBackend.allCases)
    func quotaHoldsUnderUploadsAtOnce(backend: StoreBackend) async throws {
        let (one, two) = try await backend.makeTwoInstances()
        let size = 20_000
        let quota = Int64(3 * size + size / 2)
        let instances = [one.photos(of: .localOwner, quotaBytes: quota), two.photos(of: .localOwner, quotaBytes: quota)]
        let kept = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<10 {
                group.addTask {
                    do {
                        _ = try await instances[index % 2].add(Self.png(width: UInt32(index + 1), bytes: size))
                        return true
                    } catch DiaryPhotoError.overQuota {
                        return false
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let stored = try await one.photoRows(of: .localOwner).storedBytes()
        #expect(stored <= quota, "\(kept) photos kept, \(stored) bytes against a quota of \(quota)")
        #expect(kept == 3)
    }

    @Test("A thumbnail counts toward the quota as its photo does", arguments: StoreBackend.allCases)
    func thumbnailsCount(backend: StoreBackend) async throws {
        let storage = try await backend.makeStorage()
        let photo = Self.png(width: 40, bytes: 5_000)
        let unlimited = storage.photos(of: .localOwner)
        let (stored, _) = try await unlimited.add(photo)
        let room = Int64(stored.byteCount) + 100
        let limited = storage.photos(of: .localOwner, quotaBytes: room)
        let thumbnail = Self.png(width: 4, bytes: 500)
        await #expect(throws: DiaryPhotoError.overQuota(quotaBytes: room)) { try await limited.addThumbnail(thumbnail, to: stored.id) }
        #expect(try await storage.photoRows(of: .localOwner).thumbnailBytes(of: stored.id) == nil)
        let small = Self.png(width: 4, bytes: 10)
        #expect(try await limited.addThumbnail(small, to: stored.id).thumbnail != nil, "one that fits is kept")
        // Replacing a thumbnail counts the new one in place of the old.
        #expect(try await limited.addThumbnail(Self.png(width: 5, bytes: 12), to: stored.id).thumbnail?.width == 5)
    }
}
