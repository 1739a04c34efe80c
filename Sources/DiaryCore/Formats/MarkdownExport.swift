import Foundation

/// A diary as Markdown: readable anywhere, one section per entry, oldest last like the list.
public enum MarkdownExport {
    public static let header = "# Diary\n"

    /// One entry: its title as a heading, its date and time in ISO form, then its body.
    public static func section(for entry: Entry) -> String {
        let title = entry.title.isBlank ? "Untitled" : entry.title
        var text = "\n## \(title)\n\n*\(ISODate.string(from: entry.createdAt))*\n"
        if !entry.body.isBlank { text += "\n\(entry.body.trimmingCharacters(in: .newlines))\n" }
        return text
    }
}
