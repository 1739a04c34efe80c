import Foundation

/// An entry's tags, checked against the diary's rules.
///
/// A tag is any word or few words a writer gives it ("travel", "여행", "Trip to Jeju"): its
/// spaces are tidied (none around it, one between words), it keeps the case it was written in,
/// and it is compared without case, so "Travel" and "travel" are one tag (`key`). Every write
/// goes through here, whatever its source (web, command line, import).
public enum Tags {
    /// Characters (as the writer counts them: grapheme clusters) in one tag.
    public static let maximumLength = 100
    /// Code points in one tag: four a character on average, so a pile of combining marks on one
    /// letter cannot pass for a short tag.
    public static let maximumScalars = 4 * maximumLength
    /// Tags on one entry.
    public static let maximumCount = 50
    /// Tags given at once, repeats included (they count once): past this, refused unread.
    static let maximumGiven = 4 * maximumCount

    /// `tags` tidied, with each tag once (the first spelling of it kept), in the order written;
    /// or why they cannot be an entry's tags.
    public static func checked(_ tags: [String]) throws(EntryError) -> [String] {
        // A list far longer than any entry may keep is refused before each tag is read: a
        // request of a million one-letter tags would otherwise hold a core for seconds.
        if tags.count > maximumGiven { throw .tooManyTags(limit: maximumCount) }
        var seen = Set<String>()
        var kept: [String] = []
        for (index, written) in tags.enumerated() {
            let tag = tidied(written)
            if tag.isEmpty { throw .badTag(position: index + 1, "it is empty") }
            if let control = tag.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
                throw .badTag(position: index + 1, "it holds the control character U+\(String(control.value, radix: 16, uppercase: true))")
            }
            if tag.count > maximumLength || tag.unicodeScalars.count > maximumScalars {
                throw .badTag(position: index + 1, "it is longer than \(maximumLength) characters")
            }
            guard seen.insert(key(tag)).inserted else { continue }
            kept.append(tag)
        }
        if kept.count > maximumCount { throw .tooManyTags(limit: maximumCount) }
        return kept
    }

    /// A tag as kept: in NFC, no white space around it, one space between its words. Leading
    /// `#` and `@` (how people mark tags in text, and jrnl's own mark) are not part of it, nor
    /// the spaces between them (`# # travel` is "travel"; `# #` is no tag at all). Tidying a tag
    /// as kept gives it back unchanged, so a tag read back from any export is the same tag.
    public static func tidied(_ tag: String) -> String {
        var words = Substring(tag.precomposedStringWithCanonicalMapping.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        while let first = words.first, first == "#" || first == "@" || first == " " { words.removeFirst() }
        return String(words)
    }

    /// What a tag is compared by: NFKC, full case folding, NFKC again (as account names are),
    /// so "Travel", "TRAVEL" and a full-width "ｔｒａｖｅｌ" are one tag.
    public static func key(_ tag: String) -> String {
        tidied(tag).precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive], locale: nil)
            .precomposedStringWithCompatibilityMapping
    }

    /// Tags as people write them in text (and Obsidian and Bear read them): `#travel #여행`;
    /// a tag of several words keeps them together with dashes (`#Trip-to-Jeju`).
    public static func hashtags(_ tags: [String]) -> String {
        tags.map { "#" + $0.replacingOccurrences(of: " ", with: "-") }.joined(separator: " ")
    }

    /// Whether two lists hold the same tags, spelled the same, in the same order.
    public static func same(_ one: [String], _ other: [String]) -> Bool {
        one.count == other.count && zip(one, other).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }
}
