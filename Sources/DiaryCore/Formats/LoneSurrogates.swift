/// Finds a `\uD800`–`\uDFFF` escape in JSON that is not half of a surrogate pair.
///
/// JSON's escapes can spell half of a UTF-16 pair alone, which is no character at all: no
/// string can hold it, so such a text cannot be stored as sent. JSON parsers refuse it with a
/// message about the file's end or about validity in general; this names it, so the writer (or
/// the program that sent it) is told what to fix.
public enum LoneSurrogates {
    /// The byte offset of the first lone surrogate escape in `json`, or `nil` when there is none.
    public static func firstOffset(in json: some Collection<UInt8>) -> Int? {
        let bytes = Array(json)
        var index = 0
        var pendingHigh: Int?  // offset of a high surrogate escape waiting for its low half
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\\") else {
                if pendingHigh != nil { return pendingHigh }
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { break }
            guard bytes[index + 1] == UInt8(ascii: "u"), let unit = hex4(bytes, at: index + 2) else {
                if let pendingHigh { return pendingHigh }
                index += 2  // any other escape, "\\\\" included, is two bytes
                continue
            }
            switch unit {
            case 0xD800...0xDBFF:
                if let pendingHigh { return pendingHigh }
                pendingHigh = index
            case 0xDC00...0xDFFF:
                if pendingHigh == nil { return index }
                pendingHigh = nil
            default:
                if let pendingHigh { return pendingHigh }
            }
            index += 6
        }
        return pendingHigh
    }

    /// Why text with a lone surrogate at `offset` is refused, as the middle of a sentence.
    public static func reason(at offset: Int) -> String {
        "byte \(offset) is a \\u escape of half a UTF-16 surrogate pair without its other half, which is not a character: send the character itself, or both halves"
    }

    private static func hex4(_ bytes: [UInt8], at start: Int) -> UInt16? {
        guard start + 4 <= bytes.count else { return nil }
        var value: UInt16 = 0
        for offset in 0..<4 {
            guard let digit = Hex.value(of: bytes[start + offset]) else { return nil }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}
