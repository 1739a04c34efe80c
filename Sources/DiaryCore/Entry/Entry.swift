import Foundation

/// One diary entry: what its writer wrote, and when.
///
/// Dates are kept to the millisecond, the precision every store and export shares,
/// so an entry reads back exactly as it was written.
public struct Entry: Sendable, Hashable {
    public var id: UUID
    public var title: String
    public var body: String
    public var createdAt: Date
    public var updatedAt: Date
    /// Grows by one with every change; an update based on an older version is refused.
    public var version: Int
    /// When the entry was moved to the trash; `nil` while it is in the diary.
    public var deletedAt: Date?
    /// Where it was written, to about 1 km, when its writer shared that.
    public var location: Coordinates?
    /// The weather there and then, once a provider has answered.
    public var weather: Weather?

    public init(
        id: UUID = UUID(),
        title: String,
        body: String,
        createdAt: Date,
        updatedAt: Date? = nil,
        version: Int = 1,
        deletedAt: Date? = nil,
        location: Coordinates? = nil,
        weather: Weather? = nil
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.createdAt = createdAt.roundedToMilliseconds
        self.updatedAt = (updatedAt ?? createdAt).roundedToMilliseconds
        self.version = version
        self.deletedAt = deletedAt?.roundedToMilliseconds
        self.location = location
        self.weather = weather
    }

    public var isInTrash: Bool { deletedAt != nil }

    /// The entry as a row of a list.
    public var summary: EntrySummary {
        EntrySummary(
            id: id, title: title, excerpt: Excerpt.of(body),
            createdAt: createdAt, updatedAt: updatedAt, version: version, deletedAt: deletedAt, weather: weather)
    }
}

extension Date {
    /// Unix time in whole milliseconds: how stores keep dates.
    public var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }

    public init(millisecondsSince1970 ms: Int64) {
        self.init(timeIntervalSince1970: Double(ms) / 1000)
    }

    var roundedToMilliseconds: Date { Date(millisecondsSince1970: millisecondsSince1970) }
}

extension UUID {
    /// Ids as the diary writes them: lowercase, like most of the world's UUIDs.
    public var diaryString: String { uuidString.lowercased() }
}
