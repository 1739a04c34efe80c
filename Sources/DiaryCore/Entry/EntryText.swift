/// The words of an entry, checked against the diary's rules.
///
/// Every write goes through here, whatever its source (web, command line, import),
/// so no store ever holds a blank entry, a title of two lines, or an oversized text.
public struct EntryText: Sendable, Hashable {
    public static let maximumTitleLength = 1_000
    /// 1 MiB of UTF-8: a long letter is far below it, a pasted book is not.
    public static let maximumBodyBytes = 1_048_576

    public let title: String
    public let body: String

    /// Applies the rules:
    /// - a title is one line: a line break typed into it moves what follows into the body,
    ///   as the original app did;
    /// - a title and a body that are both blank (white space only) are refused;
    /// - a title over 1,000 characters (Unicode scalars) or a body over 1 MiB is refused.
    ///
    /// With `allowBlank`, blank words are let through: an entry may be only photos, which
    /// `Diary` checks once it knows what the entry holds.
    public init(title: String, body: String, allowBlank: Bool = false) throws(EntryError) {
        var title = title
        var body = body
        if let lineBreak = title.firstIndex(where: \.isLineBreak) {
            // Blank lines between the title and what follows are spacing, not text.
            let rest = title[title.index(after: lineBreak)...].drop(while: \.isLineBreak)
            title = String(title[..<lineBreak])
            if !rest.isBlank {
                body = body.isEmpty ? String(rest) : String(rest) + "\n" + body
            }
        }
        if !allowBlank && title.isBlank && body.isBlank { throw .blank }
        // Counted in Unicode scalars (code points), as JSON Schema's maxLength counts: counted
        // in Swift's characters, "a" followed by 400,000 combining accents was one character.
        if title.unicodeScalars.count > Self.maximumTitleLength {
            throw .titleTooLong(limit: Self.maximumTitleLength)
        }
        if body.utf8.count > Self.maximumBodyBytes {
            throw .bodyTooLong(limitBytes: Self.maximumBodyBytes)
        }
        self.title = title
        self.body = body
    }
}

extension EntryText {
    /// Whether `entry` holds exactly these words, byte for byte. Swift's `==` on strings
    /// compares canonical equivalents as equal ("é" as one code point or as "e" and an accent),
    /// so a change of only that kind would be taken for no change and never stored.
    public func isSame(as entry: Entry) -> Bool {
        title.utf8.elementsEqual(entry.title.utf8) && body.utf8.elementsEqual(entry.body.utf8)
    }
}

extension Character {
    /// A line break that ends a title: what a text field can hold (LF, CR, CR LF) and Unicode's
    /// line and paragraph separators and NEL. Vertical tab and form feed are control characters
    /// a title keeps as they are, like every other.
    var isLineBreak: Bool {
        switch self {
        case "\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}": true
        default: false
        }
    }
}

extension StringProtocol {
    /// True when there is nothing but white space and line breaks.
    public var isBlank: Bool { allSatisfy { $0.isWhitespace } }
}
