@testable import DiaryStore
import Foundation
import GRDB
import Testing

@Suite("Writes that share a commit")
struct GroupCommitTests {
    struct Refused: Error, Equatable { let number: Int }

    @Test("In one batch, a write that fails after changing rows is undone alone; the others are kept")
    func failingWriteIsUndoneAlone() async throws {
        let database = try DiaryDatabase(path: TemporaryFolder.make().appendingPathComponent("diary.sqlite").path)
        try await database.write { db in try db.execute(sql: "CREATE TABLE scratch (number INTEGER NOT NULL)") }
        // Keep the writer busy so that the writes below all queue up and share the next batch.
        let busy = Task { try await database.write { _ in Thread.sleep(forTimeInterval: 0.3) } }
        try await Task.sleep(for: .milliseconds(50))
        let outcomes = await withTaskGroup(of: (Int, Result<Void, Refused>).self) { group in
            for number in 0..<30 {
                group.addTask {
                    do {
                        try await database.write { db in
                            try db.execute(sql: "INSERT INTO scratch (number) VALUES (?)", arguments: [number])
                            // 7 fails after its insert; 20 fails before writing anything.
                            if number == 7 || number == 20 { throw Refused(number: number) }
                        }
                        return (number, .success(()))
                    } catch {
                        return (number, .failure(error as? Refused ?? Refused(number: -1)))
                    }
                }
            }
            return await group.reduce(into: [Int: Result<Void, Refused>]()) { $0[$1.0] = $1.1 }
        }
        try await busy.value
        for number in 0..<30 {
            if number == 7 || number == 20 {
                #expect(outcomes[number] == .failure(Refused(number: number)))
            } else {
                #expect(outcomes[number] == .success(()))
            }
        }
        let kept = try await database.write { db in try Int.fetchAll(db, sql: "SELECT number FROM scratch ORDER BY number") }
        #expect(kept == (0..<30).filter { $0 != 7 && $0 != 20 })
    }
}
