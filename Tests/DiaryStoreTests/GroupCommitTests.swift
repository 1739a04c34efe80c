import DiaryCore
@testable import DiaryStore
import Foundation
import GRDB
import Testing

@Suite("Writes that share a commit")
struct GroupCommitTests {
    struct Refused: Error, Equatable { let number: Int }

    @Test("In one batch, a write that fails after changing rows is undone alone; the others are kept")
    func failingWriteIsUndoneAlone() async throws {
        let database = try SQLiteDatabase(path: TemporaryFolder.make().appendingPathComponent("diary.sqlite").path)
        try await database.write { db in try db.execute(sql: "CREATE TABLE scratch (number INTEGER NOT NULL)") }
        // Keep the writer busy so that the writes below all queue up and share the next batch.
        let busy = Task { try await database.write { _ in Thread.sleep(forTimeInterval: 0.3) } }
        try await Task.sleep(for: .milliseconds(50))
        let outcomes = await withTaskGroup(of: (Int, Result<Int, Refused>).self) { group in
            for number in 0..<30 {
                group.addTask {
                    do {
                        try await database.write { db in
                            try db.execute(sql: "INSERT INTO scratch (number) VALUES (?)", arguments: [number])
                            // 7 fails after its insert; 20 fails before writing anything.
                            if number == 7 || number == 20 { throw Refused(number: number) }
                        }
                        return (number, .success(number))
                    } catch {
                        return (number, .failure(error as? Refused ?? Refused(number: -1)))
                    }
                }
            }
            return await group.reduce(into: [Int: Result<Int, Refused>]()) { $0[$1.0] = $1.1 }
        }
        try await busy.value
        for number in 0..<30 {
            if number == 7 || number == 20 {
                #expect(outcomes[number] == .failure(Refused(number: number)))
            } else {
                #expect(outcomes[number] == .success(number))
            }
        }
        let kept = try await database.write { db in try Int.fetchAll(db, sql: "SELECT number FROM scratch ORDER BY number") }
        #expect(kept == (0..<30).filter { $0 != 7 && $0 != 20 })
    }

    @Test("Saves that do not fit on a full disk each fail saying so, nothing stored is lost, and saves work once there is room")
    func fullDisk() async throws {
        let database = try SQLiteDatabase(path: TemporaryFolder.make().appendingPathComponent("diary.sqlite").path)
        let store = database.diary(of: .localOwner)
        let kept = try await store.create(try EntryText(title: "Kept", body: "written before the disk filled"), id: UUID()).entry
        // A full disk, as SQLite sees one: the file may not grow by another page (SQLITE_FULL).
        try await database.write { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        let busy = Task { try await database.write { _ in Thread.sleep(forTimeInterval: 0.3) } }
        try await Task.sleep(for: .milliseconds(50))
        let big = String(repeating: "No room for these words. ", count: 8_000)
        let outcomes = await withTaskGroup(of: (any Error)?.self) { group in
            for number in 0..<8 {
                group.addTask {
                    do {
                        _ = try await store.create(try EntryText(title: "Day \(number)", body: big), id: UUID()).entry
                        return nil
                    } catch { return error }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        try await busy.value

        for outcome in outcomes { #expect(outcome as? SQLiteFailure == .diskFull(path: database.path)) }
        #expect(try await store.entry(id: kept.id) == kept)
        try await database.write { db in try db.execute(sql: "PRAGMA max_page_count = 1073741823") }
        _ = try await store.create(try EntryText(title: "Room again", body: big), id: UUID()).entry
        #expect(try await store.count() == 2)
        #expect(try await database.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test("Saves of one batch, several of the same entry and older entries after newer ones, leave search finding exactly the last words")
    func batchedSavesKeepSearchExact() async throws {
        let database = try SQLiteDatabase(path: TemporaryFolder.make().appendingPathComponent("diary.sqlite").path)
        let store = database.diary(of: .localOwner)
        var entries: [Entry] = []
        for number in 0..<6 { entries.append(try await store.create(try EntryText(title: "Day \(number)", body: "start\(number)"), id: UUID()).entry) }
        let busy = Task { try await database.write { _ in Thread.sleep(forTimeInterval: 0.3) } }
        try await Task.sleep(for: .milliseconds(50))
        // Newest entry first, each saved three times over (as autosaves come): "draftN", "againN", "finalN".
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (entry, number) in zip(entries, 0...).reversed() {
                group.addTask {
                    for word in ["draft", "again", "final"] {
                        _ = try await store.update(id: entry.id, to: try EntryText(title: "Day \(number)", body: "\(word)\(number) words"), expecting: nil)
                    }
                }
            }
            try await group.waitForAll()
        }
        try await busy.value
        for number in 0..<6 {
            #expect(try await store.search("final\(number)", limit: 10).map(\.entry.id) == [entries[number].id])
            for gone in ["start", "draft", "again"] { #expect(try await store.search("\(gone)\(number)", limit: 10).isEmpty) }
        }
        #expect(try await store.search("words", limit: 10).count == 6)
        // FTS5's own check that the index is consistent with itself.
        try await database.write { db in try db.execute(sql: "INSERT INTO entry_search (entry_search, rank) VALUES ('integrity-check', 0)") }
    }

    @Test("While another process holds the write lock, a save fails once, saying the diary is busy, and the next one succeeds")
    func lockedByAnotherProcess() async throws {
        let path = try TemporaryFolder.make().appendingPathComponent("diary.sqlite").path
        let database = try SQLiteDatabase(path: path, waitingForLocks: 0.3)
        let store = database.diary(of: .localOwner)
        // Another process's long write: a connection that keeps its transaction open.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: path, configuration: configuration)
        try await other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        await #expect(throws: SQLiteFailure.busy(path: path)) {
            _ = try await store.create(try EntryText(title: "Blocked", body: ""), id: UUID()).entry
        }
        try await other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        let saved = try await store.create(try EntryText(title: "Later", body: ""), id: UUID()).entry
        #expect(try await store.entry(id: saved.id) == saved)
        #expect(try await store.count() == 1)
    }
}
