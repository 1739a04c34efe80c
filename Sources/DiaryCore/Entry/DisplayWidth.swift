import Foundation

/// How many columns text takes on a screen, as a terminal counts them: East Asian wide
/// characters (Hangul, CJK, most emoji) take two, combining marks and other zero-width
/// characters none, the rest one. The CLI fits its lines with it, and an excerpt is as long
/// on screen in Korean as in English (`Excerpt`).
public enum DisplayWidth {
    public static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if isZeroWidth(first) { return 0 }
        return character.unicodeScalars.contains(where: isWide) ? 2 : 1
    }

    /// The start of `text` that takes at most `columns` columns.
    public static func prefix(_ text: Substring, columns: Int) -> Substring {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            used += of(text[index])
            if used > columns { break }
            end = text.index(after: index)
        }
        return text[..<end]
    }

    /// `text` cut to at most `columns` columns, with "…" where it was cut.
    public static func fit(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            kept.append(character)
            used += width
        }
        return kept + "…"
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return scalar.value != 0x00AD
        default: return (0x1160...0x11FF).contains(scalar.value)  // Hangul medial and final jamo
        }
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3, 0x25FD...0x25FE,
             0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
             0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C,
             0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
             0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F2FF, 0x1F300...0x1F64F, 0x1F680...0x1F6FF,
             0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        case 0xFE0F:
            return true  // emoji presentation: the character before it is drawn as a wide emoji
        default:
            return false
        }
    }
}
