import DiaryCore
import DiaryStore
import Foundation
import GRDB
import Testing

@Suite("The SQLite file")
struct SQLiteStorageTests {
    @Test("A bulk import leaves the search index in one segment, so later writes have no merging to do")
    func bulkImportMergesTheIndex() async throws {
        let path = try TemporaryFolder.make().appendingPathComponent("diary.sqlite").path
        let store = try SQLiteStorage.diary(path: path)
        // Enough varied text that FTS5 writes its tokens out in several segments on the way.
        var generator = SystemRandomNumberGenerator()
        let words = (0..<4_000).map { _ in String((0..<7).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement(using: &generator)! }) }
        let entries = (0..<3_000).map { number in
            Entry(title: "Day \(number)", body: (0..<200).map { _ in words.randomElement(using: &generator)! }.joined(separator: " "),
                  createdAt: Date(timeIntervalSince1970: Double(number) * 86_400))
        }
        #expect(try await store.importEntries(entries).imported == 3_000)
        let structure = try await DatabaseQueue(path: path).read { db in
            try Data.fetchOne(db, sql: "SELECT block FROM entry_search_data WHERE id = 10")
        }
        // FTS5's structure record: a 4-byte cookie, then the number of levels and of segments.
        let segments = try #require(structure).dropFirst(5).first
        #expect(segments == 1)
        // And the merged index still finds what was imported.
        let firstWord = String(try #require(entries[0].body.split(separator: " ").first))
        #expect(try await store.search(firstWord, limit: 1).count == 1)
    }

    @Test("A file that is not a database is refused and left untouched")
    func notADatabase() throws {
        let path = try TemporaryFolder.make().appendingPathComponent("notes.sqlite").path
        let text = Data("my shopping list\n".utf8)
        FileManager.default.createFile(atPath: path, contents: text)
        #expect(throws: SQLiteFailure.notADiary(path: path)) { try SQLiteStorage.diary(path: path) }
        #expect(FileManager.default.contents(atPath: path) == text)
    }

    @Test("Another program's SQLite database is refused and left untouched")
    func otherProgramsDatabase() throws {
        let path = try TemporaryFolder.make().appendingPathComponent("other.sqlite").path
        let other = try DatabaseQueue(path: path)
        try other.write { try $0.execute(sql: "CREATE TABLE contacts (name TEXT)") }
        try other.close()
        #expect(throws: SQLiteFailure.otherProgramsDatabase(path: path)) { try SQLiteStorage.diary(path: path) }
        let tables = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
        #expect(tables == ["contacts"])
    }

    @Test("A folder that does not exist gives an error that says what to check")
    func missingFolder() {
        #expect {
            try SQLiteStorage.diary(path: "/nonexistent-folder/diary.sqlite")
        } throws: { error in
            (error as? SQLiteFailure)?.description.contains("check that its folder exists") == true
        }
    }

    @Test("The diary is in WAL mode, so readers never wait for a writer")
    func walMode() throws {
        let path = try TemporaryFolder.make().appendingPathComponent("diary.sqlite").path
        _ = try SQLiteStorage.diary(path: path)
        let mode = try DatabaseQueue(path: path).read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test("With background checkpoints, commits leave the log alone and the checkpointer copies it into the file")
    func backgroundCheckpoints() async throws {
        let path = try TemporaryFolder.make().appendingPathComponent("diary.sqlite").path
        let database = try SQLiteDatabase(path: path, checkpoints: .background)
        let store = database.diary(of: .localOwner)
        func fileSize() throws -> Int { try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int }
        let before = try fileSize()
        let body = String(repeating: "A long day of writing. ", count: 200)
        for number in 0..<200 { _ = try await store.create(try EntryText(title: "Entry \(number)", body: body), id: UUID()).entry }
        // No commit copied the log back: every new page is still in the -wal file.
        #expect(try fileSize() == before)

        let checkpoints = Task { await database.backgroundCheckpoints(interval: .milliseconds(20), threshold: 1).run() }
        defer { checkpoints.cancel() }
        let deadline = ContinuousClock.now + .seconds(10)
        while try fileSize() == before, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(try fileSize() > before)
        #expect(try await store.count() == 200)
        let check = try await DatabaseQueue(path: path).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")
    }

    @Test("The list walks an index from the cursor on, never scanning skipped rows")
    func listUsesIndex() throws {
        let path = try TemporaryFolder.make().appendingPathComponent("diary.sqlite").path
        _ = try SQLiteStorage.diary(path: path)
        let plan = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT seq FROM entry WHERE owner_id = ? AND deleted_at IS NULL AND (created_at, seq) < (?, ?)
                ORDER BY created_at DESC, seq DESC LIMIT 20
                """, arguments: [1, 1, 1]).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("entry_owner_diary_order") })
        #expect(!plan.contains { $0.contains("TEMP B-TREE") })
    }
}

@Suite("Backups")
struct BackupTests {
    @Test("A backup taken while entries are being written opens, passes integrity_check, and holds a consistent diary")
    func backupDuringWrites() async throws {
        let folder = try TemporaryFolder.make()
        let storage = try SQLiteStorage(path: folder.appendingPathComponent("diary.sqlite").path)
        let store = storage.diary(of: .localOwner)
        _ = try await store.importEntries((0..<200).map { Entry(title: "E\($0)", body: String(repeating: "words ", count: 50), createdAt: Date(timeIntervalSince1970: Double($0))) })
        let writer = Task {
            for number in 0..<200 { _ = try await store.create(try EntryText(title: "During \(number)", body: "x"), id: UUID()).entry }
        }
        let copyPath = folder.appendingPathComponent("backup.sqlite").path
        try await storage.backup(to: copyPath)
        try await writer.value

        let copy = try DatabaseQueue(path: copyPath)
        let check = try await copy.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")
        let copied = try SQLiteStorage.diary(path: copyPath)
        let count = try await copied.count()
        #expect(count >= 200 && count <= 400)
        // The copy's search index agrees with its entries.
        #expect(try await copied.search("words", limit: 500).count == 200)
        await #expect(throws: BackupError.exists(copyPath)) { try await storage.backup(to: copyPath) }
    }
}

@Suite("Each diary is its owner's alone")
struct OwnerIsolationTests {
    @Test("Another owner's entries are never read, listed, found, changed, trashed or purged")
    func isolation() async throws {
        let database = try SQLiteDatabase(path: TemporaryFolder.make().appendingPathComponent("diary.sqlite").path)
        let alice = database.diary(of: UserID(rawValue: 1))
        let bob = database.diary(of: UserID(rawValue: 2))
        let secret = try await alice.create(try EntryText(title: "Alice's secret", body: "serenity 일기"), id: UUID()).entry

        #expect(try await bob.entry(id: secret.id) == nil)
        #expect(try await bob.list(after: nil, limit: 10).entries.isEmpty)
        #expect(try await bob.search("serenity", limit: 10).isEmpty)
        #expect(try await bob.search("일기", limit: 10).isEmpty)
        #expect(try await bob.ids(startingWith: String(secret.id.diaryString.prefix(4)), limit: 2).isEmpty)
        #expect(try await bob.count() == 0)
        await #expect(throws: EntryError.notFound(secret.id.diaryString)) {
            try await bob.update(id: secret.id, to: try EntryText(title: "Bob was here", body: ""), expecting: nil)
        }
        await #expect(throws: EntryError.notFound(secret.id.diaryString)) { try await bob.moveToTrash(id: secret.id) }
        await #expect(throws: EntryError.notFound(secret.id.diaryString)) { try await bob.purge(id: secret.id) }
        // Ids are per diary: Bob may use the same id, learns nothing of Alice's entry, and
        // changes nothing of it; importing an entry with that id into his diary stores it.
        let bobs = try await bob.create(try EntryText(title: "mine", body: ""), id: secret.id).entry
        #expect(bobs.title == "mine" && bobs.version == 1)
        let copy = Entry(id: secret.id, title: "Imported", body: "", createdAt: Date(timeIntervalSince1970: 0))
        let carol = database.diary(of: UserID(rawValue: 3))
        #expect(try await carol.importEntries([copy]) == ImportSummary(imported: 1, skipped: 0))
        #expect(try await carol.importEntries([copy]) == ImportSummary(imported: 0, skipped: 1))
        #expect(try await carol.entry(id: secret.id)?.title == "Imported")

        #expect(try await alice.entry(id: secret.id) == secret)
        #expect(try await alice.search("serenity", limit: 10).count == 1)
    }
}

@Suite("The file's layout")
struct FileLayoutTests {
    @Test("A new diary has 16 KiB pages, so entries do not spill into half-empty overflow pages")
    func pageSize() async throws {
        let path = try TemporaryFolder.make().appendingPathComponent("diary.sqlite").path
        _ = try SQLiteStorage.diary(path: path)
        let size = try await DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "PRAGMA page_size") }
        #expect(size == 16_384)
    }
}
