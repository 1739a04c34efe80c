import DiaryCore
import Logging
import PostgresNIO

/// Each diary's change count (`EntryRows.changeCount`), moved in the writing transaction or
/// statement.
enum ChangeCount {
    /// `write` (an INSERT, UPDATE or DELETE … RETURNING) as one statement that also counts one
    /// change of the diary of `owner` (a parameter such as "$3") when it wrote a row; it returns
    /// a row exactly then, holding the new count.
    static func counting(_ write: String, owner: String) -> String {
        """
        WITH written AS (\(write))
        INSERT INTO diary_change (owner_id, count) SELECT \(owner)::bigint, 1 FROM written LIMIT 1
        ON CONFLICT (owner_id) DO UPDATE SET count = diary_change.count + 1
        RETURNING count
        """
    }

    /// Counts one change of `owner`'s diary; its new count (to tell `ChangeFeed.wrote` once the
    /// transaction it is part of has committed, not before).
    @discardableResult
    static func moved(_ owner: UserID, _ connection: PostgresConnection, _ logger: Logger) async throws -> Int64 {
        let rows = try await connection.query("""
            INSERT INTO diary_change (owner_id, count) VALUES (\(owner.rawValue), 1)
            ON CONFLICT (owner_id) DO UPDATE SET count = diary_change.count + 1
            RETURNING count
            """, logger: logger)
        for try await count in rows.decode(Int64.self) { return count }
        return 0
    }
}
