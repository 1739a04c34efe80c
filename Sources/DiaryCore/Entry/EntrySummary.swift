import Foundation

/// An entry as a row of a list: its title, dates, and the first line of its body.
public struct EntrySummary: Sendable, Hashable {
    public var id: UUID
    public var title: String
    /// The first line of the body that is not blank, shortened to `Excerpt.maximumLength`.
    public var excerpt: String
    public var createdAt: Date
    public var updatedAt: Date
    public var version: Int
    public var deletedAt: Date?
    public var weather: Weather?
    public var tags: [String]
    public var starred: Bool
    /// The entry's first photo, which the row shows small.
    public var photo: PhotoID?
    /// The writer's time zone (`Entry.timeZone`), which places the row on its day.
    public var timeZone: String?

    public init(
        id: UUID, title: String, excerpt: String, createdAt: Date, updatedAt: Date,
        version: Int, deletedAt: Date?, weather: Weather? = nil, tags: [String] = [], starred: Bool = false,
        photo: PhotoID? = nil, timeZone: String? = nil
    ) {
        self.id = id
        self.title = title
        self.excerpt = excerpt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.version = version
        self.deletedAt = deletedAt
        self.weather = weather
        self.tags = tags
        self.starred = starred
        self.photo = photo
        self.timeZone = timeZone
    }
}

/// The one line of a body that a list shows under the title.
public enum Excerpt {
    /// In columns (`DisplayWidth`): a Hangul syllable takes two, as on screen, so a Korean
    /// excerpt fills as many of a row's lines as an English one, and weighs half of what 200
    /// syllables would (three bytes each) in every list page and on a first visit.
    public static let maximumLength = 200

    /// The first non-blank line of `body`, at most `maximumLength` columns.
    ///
    /// Lines are found by their bytes and only the chosen one is read as characters: a page of
    /// the list makes twenty of these, and splitting whole bodies into lines showed in its time.
    public static func of(_ body: String) -> String {
        var rest = body[...]
        while !rest.isEmpty {
            let end = rest.utf8.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? rest.endIndex
            let line = rest[..<end].drop(while: { $0.isWhitespace })
            if !line.isEmpty {
                // A line of at most that many bytes has at most that many characters: most
                // first lines are short, and counting characters means finding grapheme breaks.
                // (A character takes at most as many columns as it has bytes.)
                var shown = line.utf8.count <= maximumLength ? line : DisplayWidth.prefix(line, columns: maximumLength)
                while let last = shown.last, last.isWhitespace { shown.removeLast() }
                return String(shown)
            }
            rest = end == rest.endIndex ? "" : rest[rest.utf8.index(after: end)...]
        }
        return ""
    }
}
