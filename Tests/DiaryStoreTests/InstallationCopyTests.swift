import DiaryBackends
import DiaryCore
import DiaryPasswords
import DiaryStore
import Foundation
import Testing

/// `diary copy` and `diary backup`: a whole installation moves between backends, in either
/// direction, exactly, all or nothing.
@Suite("A whole installation moves between backends")
struct InstallationCopyTests {
    /// A storage holding two accounts with a token each, their diaries (an edited entry, one in
    /// the trash, weather, a place, text with NUL and accents).
    static func filled(_ backend: StoreBackend) async throws -> any Storage {
        let storage = try await backend.makeStorage()
        let accounts = storage.accounts(passwords: BcryptPasswords(cost: 4))
        let ann = try await accounts.addUser(name: "ann", password: "correct horse battery")
        let bob = try await accounts.addUser(name: "Bob", password: "another long password")
        _ = try await accounts.createToken(named: "phone", for: ann)
        _ = try await accounts.createToken(named: "script", for: bob)
        for (user, words) in [(ann, "Ann's"), (bob, "Bob's")] {
            let diary = storage.diary(of: user.id)
            let first = try await diary.create(try EntryText(title: "\(words) first", body: "e\u{301}t\u{0}é 일기를 썼다"), id: UUID()).entry
            _ = try await diary.update(id: first.id, to: try EntryText(title: "\(words) first, edited", body: "again"), expecting: 1)
            _ = try await diary.edit(id: first.id, try EntryEdit(tags: ["Travel", "Trip to Jeju"], starred: true), expecting: 2)
            let sunny = Weather(provider: "open-meteo", condition: .clear, description: "clear sky", isDay: false, temperatureCelsius: -3.5)
            try await diary.attachWeather(sunny, to: first.id)
            let doomed = try await diary.create(try EntryText(title: "\(words) trashed", body: ""), id: UUID(), tags: ["gone", "여행"],
                                                starred: true, timeZone: "Asia/Seoul").entry
            _ = try await diary.moveToTrash(id: doomed.id)
            // A photo of two parts with its thumbnail, held by the first entry.
            let (photo, bytes) = PhotoRowsConformanceTests.photo(bytes: StoredPhoto.partSize + 999, seed: UInt8(user.id.rawValue))
            // Below `Diary`'s rules: bytes that stand for a photo, which `DiaryPhotos.add` would refuse.
            let photos = storage.photoRows(of: user.id)
            _ = try await photos.store(photo, content: bytes)
            _ = try await photos.storeThumbnail(PhotoThumbnail(format: .webp, width: 300, height: 200, byteCount: 3),
                                              bytes: Data([1, 2, 3]), of: photo.id)
            _ = try await diary.edit(id: first.id, try EntryEdit(photos: [EntryPhoto(id: photo.id, caption: "\(words) photo")]),
                                     expecting: 3)
        }
        return storage
    }

    static var pairs: [(StoreBackend, StoreBackend)] {
        StoreBackend.allCases.flatMap { from in StoreBackend.allCases.map { (from, $0) } }
    }

    @Test("Accounts, tokens, entries, versions, weather and the trash arrive exactly", arguments: pairs)
    func copies(from: StoreBackend, to: StoreBackend) async throws {
        let source = try await Self.filled(from)
        let destination = try await to.makeStorage()
        let counts = try await Backends.copy(from: source, to: destination)
        #expect(counts == Installation.Counts(accounts: 2, tokens: 2, entries: 4, trashed: 2, photos: 2))
        let read = try await source.readInstallation()
        #expect(read.photos.values.joined().allSatisfy { $0.bytes.count == StoredPhoto.partSize + 999 && $0.thumbnail == Data([1, 2, 3]) })
        #expect(try await destination.readInstallation() == read)
        // The copy works as the original did: the password, the token's owner, search.
        let accounts = destination.accounts(passwords: BcryptPasswords(cost: 4))
        let ann = try #require(try await accounts.verify(name: "ann", password: "correct horse battery"))
        // The photos arrive whole, part by part, held by their entries.
        let photo = try #require(read.photos[ann.id]?.first)
        let copied = destination.diary(of: ann.id)
        #expect(try await destination.photos(of: ann.id).part(0, of: photo.stored.id) == photo.bytes.prefix(StoredPhoto.partSize))
        #expect(try await destination.photos(of: ann.id).part(1, of: photo.stored.id) == photo.bytes.dropFirst(StoredPhoto.partSize))
        #expect(try await copied.list(after: nil, limit: 5).entries.first?.photo == photo.stored.id)
        let found = try await destination.diary(of: ann.id).search("edited", limit: 5)
        #expect(found.map(\.entry.title) == ["Ann's first, edited"])
        // Tags arrive as index rows too: the tag list and a tag's list work on the copy.
        #expect(try await destination.diary(of: ann.id).tags() == [TagCount(tag: "Travel", count: 1), TagCount(tag: "Trip to Jeju", count: 1)])
        let travel = try await destination.diary(of: ann.id).list(after: nil, limit: 5, filter: try EntryFilter(tags: ["travel"]))
        #expect(travel.entries.map(\.title) == ["Ann's first, edited"])
        // A new account after the copy gets a new id, not a copied one's.
        let carol = try await accounts.addUser(name: "carol", password: "a third long password")
        #expect(!read.accounts.map(\.id).contains(carol.id))
    }

    @Test("A destination that holds anything is refused and left as it was", arguments: pairs)
    func refusesNonEmpty(from: StoreBackend, to: StoreBackend) async throws {
        let source = try await Self.filled(from)
        let destination = try await to.makeStorage()
        let kept = try await destination.diary(of: .localOwner).create(try EntryText(title: "Mine", body: ""), id: UUID()).entry
        await #expect(throws: InstallationError.self) { _ = try await Backends.copy(from: source, to: destination) }
        let after = try await destination.readInstallation()
        #expect(after.accounts.isEmpty && after.tokens.isEmpty)
        #expect(after.entries == [.localOwner: [kept]])
    }

    @Test("A backup of any backend is a diary file of the same installation", arguments: StoreBackend.allCases)
    func backup(backend: StoreBackend) async throws {
        let source = try await Self.filled(backend)
        let path = try TemporaryFolder.make().appendingPathComponent("backup.sqlite").path
        try await Backends.backup(source, to: path)
        let copy = try SQLiteStorage(path: path)
        #expect(try await copy.readInstallation() == (try await source.readInstallation()))
        await #expect(throws: BackupError.exists(path)) { try await Backends.backup(source, to: path) }
    }
}
