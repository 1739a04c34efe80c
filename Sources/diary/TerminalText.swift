/// Text made safe to write to a terminal: an entry may hold escape sequences (sent through the
/// API or an import) that a terminal would obey, clearing the screen or, with OSC 52, setting
/// the clipboard.
enum TerminalText {
    /// `text` with every control character but tab and line feed shown instead of sent: C0
    /// controls and DEL in caret notation (ESC is `^[`, DEL `^?`), C1 controls (U+0080–U+009F,
    /// which some terminals obey as ESC sequences) as `<U+009B>`. These are the forms `less`
    /// shows: a reader sees that something was there and which character, where "�" would
    /// hide it, and none of them is a control character itself.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A: shown.unicodeScalars.append(scalar)
            case 0x00...0x1F: shown += "^"; shown.unicodeScalars.append(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            case 0x7F: shown += "^?"
            case 0x80...0x9F: shown += "<U+00\(String(scalar.value, radix: 16, uppercase: true))>"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }
}
