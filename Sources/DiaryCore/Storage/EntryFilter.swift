import Foundation

/// What a list is narrowed to: entries with every one of some tags, starred ones, and a span of
/// moments. The empty filter is the whole diary.
public struct EntryFilter: Sendable, Hashable {
    /// The tags as compared (`Tags.key`): an entry must have each.
    public private(set) var tagKeys: [String]
    public var starredOnly: Bool
    /// From this moment on (inclusive), in Unix milliseconds.
    public private(set) var from: Int64
    /// Before this moment (exclusive), in Unix milliseconds.
    public private(set) var until: Int64

    /// Tags in one filter: enough for any question a writer asks, few enough that a query stays cheap.
    public static let maximumTags = 10

    public static let all = EntryFilter()

    private init() {
        tagKeys = []
        starredOnly = false
        from = EntryMoment.earliest
        until = EntryMoment.latest + 1
    }

    /// The filter, or `EntryError` naming what cannot be one (a bad tag, too many, an empty span).
    public init(tags: [String] = [], starredOnly: Bool = false, from: Date? = nil, until: Date? = nil) throws(EntryError) {
        self.init()
        if tags.count > Self.maximumTags { throw .badFilter("A list can be narrowed by at most \(Self.maximumTags) tags.") }
        let checked = try Tags.checked(tags)
        tagKeys = checked.map(Tags.key)
        self.starredOnly = starredOnly
        if let from { self.from = min(max(from.millisecondsSince1970, EntryMoment.earliest), EntryMoment.latest + 1) }
        if let until { self.until = min(max(until.millisecondsSince1970, EntryMoment.earliest), EntryMoment.latest + 1) }
        if self.from >= self.until { throw .badFilter("The dates ask for no time at all: the start must come before the end.") }
    }

    public var isEmpty: Bool { self == .all }
}
