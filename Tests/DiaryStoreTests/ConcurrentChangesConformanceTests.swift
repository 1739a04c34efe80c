import DiaryCore
import Foundation
import Testing

/// Many changes at once, to many entries and to one: each is applied to the entry as the one
/// before it left it, whatever a backend gathers or retries underneath.
@Suite("Every store keeps every one of many changes made at once")
struct ConcurrentChangesConformanceTests {
    /// A change that depends on what it reads: a lost update would lose a line.
    static func appending(_ line: String) -> @Sendable (Entry) throws -> Entry? {
        { current in
            var changed = current
            changed.body += line + "\n"
            try changed.advanceVersion()
            return changed
        }
    }

    @Test("Changes at once, from two instances, to different entries and to one entry all land, in consecutive versions, each counted once",
          arguments: StoreBackend.allCases)
    func everyChangeLands(backend: StoreBackend) async throws {
        // Two instances on one database: each gathers or queues its own writes, and they race.
        let (storage, other) = try await backend.makeTwoInstances()
        let diary = storage.diary(of: .localOwner)
        let rows = [storage.entryRows(of: .localOwner), other.entryRows(of: .localOwner)]
        // Eight entries with eight writers each, and one entry with 48 writers and the weather.
        var entries: [UUID] = []
        for number in 0..<9 {
            entries.append(try await diary.create(try EntryText(title: "Entry \(number)", body: ""), id: UUID()).entry.id)
        }
        let shared = entries[8]
        let writes = (0..<8).flatMap { entry in (0..<8).map { (entries[entry], "line \(entry).\($0)") } }
            + (0..<48).map { (shared, "shared line \($0)") }
        let sunny = Weather(provider: "open-meteo", condition: .clear, description: "clear sky", isDay: true, temperatureCelsius: 20)
        let before = try await rows[0].changeCount()

        let versions = try await withThrowingTaskGroup(of: (UUID, Int)?.self) { group in
            for (number, (id, line)) in writes.shuffled().enumerated() {
                group.addTask { (id, try await rows[number % 2].change(id: id, Self.appending(line)).version) }
            }
            for number in 0..<4 {
                group.addTask {
                    try await (number % 2 == 0 ? storage : other).diary(of: .localOwner).attachWeather(sunny, to: shared)
                    return nil
                }
            }
            return try await group.reduce(into: [UUID: [Int]]()) { versions, written in
                if let (id, version) = written { versions[id, default: []].append(version) }
            }
        }

        for id in entries {
            let lines = writes.filter { $0.0 == id }.map(\.1)
            let entry = try #require(try await diary.entry(id: id))
            #expect(Set(entry.body.split(separator: "\n").map(String.init)) == Set(lines), "every line once, none lost")
            #expect(entry.body.split(separator: "\n").count == lines.count)
            #expect(entry.version == 1 + lines.count)
            #expect(versions[id, default: []].sorted() == Array(2...(1 + lines.count)), "each change its own next version")
        }
        #expect(try await diary.entry(id: shared)?.weather == sunny, "the weather, written between saves, is kept")
        // Each change counted once; the weather once to four times (a backend may skip writing
        // what is already there).
        let counted = try await rows[0].changeCount() - before
        #expect((Int64(writes.count + 1)...Int64(writes.count + 4)).contains(counted))
    }
}
