import Foundation

/// The words around a search match, so a reader sees why an entry was found.
public enum Snippet {
    /// About this many characters of text.
    public static let length = 160
    /// How much of a body (UTF-8 bytes) is looked through for the match. A body may hold 1 MiB:
    /// lowercasing all of it and looking for each word in turn took seconds for a page of such
    /// entries. A match further in shows the start of the body, as a title match does.
    public static let window = 65_536
    /// At most this many different words are looked for, each by its first `wordBytes` bytes:
    /// a snippet needs one match, and it is found as surely by a word's start.
    static let words = 16
    static let wordBytes = 64

    /// Text around the first place any word of `query` occurs in the first `window` bytes of
    /// `body` (or the start of the body when there is none: the match was in the title, or
    /// further in), with "…" where the text was cut. Its cost is bounded by `window`, whatever
    /// the body and the query.
    public static func of(_ body: String, matching query: String) -> String {
        let needles = Self.needles(of: query)
        guard !needles.isEmpty else { return excerpt(body, from: body.startIndex) }
        // Lowercased and searched as bytes: Foundation's case- and diacritic-insensitive search
        // costs milliseconds per body, and the standard library's compares whole characters.
        let lowered = Array(String(decoding: body.utf8.prefix(window), as: UTF8.self).lowercased().utf8)
        var first: Int?
        for needle in needles {
            // Only before the earliest match so far: each byte is looked at once per word.
            if let found = Self.position(of: needle, in: lowered, before: first ?? lowered.count) { first = found }
        }
        // Lowercasing keeps the count of characters but for rare letters; clamp to be safe.
        guard let first,
              let match = body.index(body.startIndex, offsetBy: String(decoding: lowered[..<first], as: UTF8.self).count, limitedBy: body.endIndex)
        else { return excerpt(body, from: body.startIndex) }
        // Start a little before the match, at a word boundary when one is near.
        let lead = Self.length / 4
        var start = body.index(match, offsetBy: -lead, limitedBy: body.startIndex) ?? body.startIndex
        if start != body.startIndex, let space = body[start..<match].firstIndex(where: { $0.isWhitespace }) {
            start = body.index(after: space)
        }
        return excerpt(body, from: start)
    }

    /// The query's different words, lowercased, as UTF-8, each cut (at a character) to `wordBytes`.
    static func needles(of query: String) -> [[UInt8]] {
        var seen = Set<[UInt8]>()
        var needles: [[UInt8]] = []
        for word in query.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            var cut = Substring(word)
            while cut.utf8.count > wordBytes { cut.removeLast() }
            let bytes = Array(cut.utf8)
            if !bytes.isEmpty, seen.insert(bytes).inserted { needles.append(bytes) }
            if needles.count == words { break }
        }
        return needles
    }

    /// Where `needle` first occurs in `haystack[..<end]`, in time linear in both
    /// (Knuth–Morris–Pratt: no quadratic case, even for "aaa…b" in a body of "aaaa…").
    static func position(of needle: [UInt8], in haystack: [UInt8], before end: Int) -> Int? {
        guard !needle.isEmpty, needle.count <= end else { return nil }
        // fallback[i]: the length of the longest proper prefix of needle[...i] that is also its suffix.
        var fallback = [Int](repeating: 0, count: needle.count)
        var length = 0
        for index in 1..<max(1, needle.count) {
            while length > 0 && needle[index] != needle[length] { length = fallback[length - 1] }
            if needle[index] == needle[length] { length += 1 }
            fallback[index] = length
        }
        return haystack.withUnsafeBufferPointer { hay in
            var matched = 0
            for index in 0..<end {
                while matched > 0 && hay[index] != needle[matched] { matched = fallback[matched - 1] }
                if hay[index] == needle[matched] { matched += 1 }
                if matched == needle.count { return index + 1 - matched }
            }
            return nil
        }
    }

    private static func excerpt(_ body: String, from start: String.Index) -> String {
        let end = body.index(start, offsetBy: Self.length, limitedBy: body.endIndex) ?? body.endIndex
        // One line: paragraphs, and any run of spaces, tabs or line breaks, become one space.
        var text = body[start..<end].split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        if start != body.startIndex { text = "…" + text }
        if end != body.endIndex { text += "…" }
        return text
    }
}
