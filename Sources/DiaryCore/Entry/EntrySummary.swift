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

    public init(
        id: UUID, title: String, excerpt: String, createdAt: Date, updatedAt: Date,
        version: Int, deletedAt: Date?, weather: Weather? = nil
    ) {
        self.id = id
        self.title = title
        self.excerpt = excerpt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.version = version
        self.deletedAt = deletedAt
        self.weather = weather
    }
}

/// The one line of a body that a list shows under the title.
public enum Excerpt {
    public static let maximumLength = 200

    /// The first non-blank line of `body`, at most `maximumLength` characters.
    public static func of(_ body: some StringProtocol) -> String {
        for line in body.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { return String(trimmed.prefix(maximumLength)) }
        }
        return ""
    }
}
