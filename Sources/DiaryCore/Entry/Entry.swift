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
    /// The writer's tags (`Tags`: tidied, each once), in the order they gave them.
    public var tags: [String]
    /// Starred by its writer: a favourite.
    public var starred: Bool
    /// Its photos, in the order its writer put them (at most `EntryPhoto.maximumPerEntry`).
    public var photos: [EntryPhoto]
    /// The time zone its writer's clock was in (an IANA name, `ZoneName`), so it is shown at the
    /// hour and on the day it was written wherever it is read; nil when no one said (entries
    /// written before zones were kept, or brought from a format without them).
    public var timeZone: String?

    public init(
        id: UUID = UUID(),
        title: String,
        body: String,
        createdAt: Date,
        updatedAt: Date? = nil,
        version: Int = 1,
        deletedAt: Date? = nil,
        location: Coordinates? = nil,
        weather: Weather? = nil,
        tags: [String] = [],
        starred: Bool = false,
        photos: [EntryPhoto] = [],
        timeZone: String? = nil
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
        self.tags = tags
        self.starred = starred
        self.photos = photos
        self.timeZone = timeZone
    }

    public var isInTrash: Bool { deletedAt != nil }

    /// No words and no photo: nothing a diary keeps. (Words alone may be blank beside a photo.)
    public var isBlank: Bool { title.isBlank && body.isBlank && photos.isEmpty }

    /// The largest version an entry may reach: 2^53 − 1, the largest whole number JavaScript
    /// (the web app, and most JSON readers) holds exactly. An import file cannot set more, and
    /// counting past it is refused rather than overflowing.
    public static let maximumVersion = 9_007_199_254_740_991

    /// Moves to the next version: every change to an entry goes through here.
    public mutating func advanceVersion() throws(EntryError) {
        guard version < Self.maximumVersion else { throw .versionExhausted }
        version += 1
    }

    /// The entry as a row of a list.
    public var summary: EntrySummary {
        EntrySummary(
            id: id, title: title, excerpt: Excerpt.of(body),
            createdAt: createdAt, updatedAt: updatedAt, version: version, deletedAt: deletedAt, weather: weather,
            tags: tags, starred: starred, photo: photos.first?.id, timeZone: timeZone)
    }
}

extension Date {
    /// Unix time in whole milliseconds: how stores keep dates.
    ///
    /// Total: a date beyond what Int64 milliseconds can hold (±292 million years, or NaN) comes
    /// out as the nearest end (NaN as 0) instead of trapping. Dates from outside are checked
    /// against `EntryMoment` before they get here; this only keeps a bad one from killing the
    /// process.
    public var millisecondsSince1970: Int64 {
        let milliseconds = (timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite else { return milliseconds.isNaN ? 0 : milliseconds > 0 ? .max : .min }
        // 2^63 itself is not an Int64: compare with the largest Double below it.
        if milliseconds >= 9_223_372_036_854_774_784 { return .max }
        if milliseconds <= -9_223_372_036_854_775_808 { return .min }
        return Int64(milliseconds)
    }

    public init(millisecondsSince1970 ms: Int64) {
        self.init(timeIntervalSince1970: Double(ms) / 1000)
    }

    var roundedToMilliseconds: Date { Date(millisecondsSince1970: millisecondsSince1970) }
}

extension UUID {
    /// Ids as the diary writes them: lowercase, like most of the world's UUIDs. Written by hand:
    /// `uuidString` formats with `snprintf`, and every save and read of an entry needs one.
    public var diaryString: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var count = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[count] = UInt8(ascii: "-")
                        count += 1
                    }
                    out[count] = Self.hexDigits[Int(byte >> 4)]
                    out[count + 1] = Self.hexDigits[Int(byte & 0x0F)]
                    count += 2
                }
                return count
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Reads an id in the 8-4-4-4-12 hex form, either case, as stored. Every row of every list
    /// reads one, and Foundation's `init(uuidString:)` parses with `sscanf` (a microsecond each).
    public init?(diaryString text: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var high: UInt8?
        for (index, character) in text.utf8.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let value = Hex.value(of: character) else { return nil }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        guard bytes.count == 16, high == nil, text.utf8.count == 36 else { return nil }
        self.init(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                         bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
