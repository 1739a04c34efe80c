import Foundation

/// What standard output is: a terminal (its width, whether it takes colour) or a pipe, where
/// output stays plain and whole, for scripts.
struct Terminal {
    let isTerminal: Bool
    /// Columns to fit lines to, on a terminal: `COLUMNS`, else the terminal's own.
    let width: Int?
    /// Rows on the screen, for the pager.
    let height: Int?
    /// Colour on a terminal only, never with `NO_COLOR` set (no-color.org) or `TERM=dumb`.
    let colour: Bool

    static func standardOutput(environment: [String: String] = ProcessInfo.processInfo.environment) -> Terminal {
        let isTerminal = isatty(STDOUT_FILENO) == 1
        var size = winsize()
        let measured = isTerminal && withUnsafeMutablePointer(to: &size) { ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), $0) } == 0
        let columns = environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
            ?? (measured && size.ws_col > 0 ? Int(size.ws_col) : nil)
        let rows = environment["LINES"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
            ?? (measured && size.ws_row > 0 ? Int(size.ws_row) : nil)
        let noColour = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return Terminal(isTerminal: isTerminal, width: isTerminal ? columns : nil, height: isTerminal ? rows : nil,
                        colour: isTerminal && !noColour && environment["TERM"] != "dumb")
    }

    /// `text` in bold, when colour is on.
    func bold(_ text: String) -> String { colour ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    /// `text` dimmed (ids, dates: what the eye skips), when colour is on.
    func dim(_ text: String) -> String { colour ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
}

/// How many columns text takes in a terminal: East Asian wide characters (Hangul, CJK, most
/// emoji) take two, combining marks and other zero-width characters none, the rest one.
enum DisplayWidth {
    static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if isZeroWidth(first) { return 0 }
        return character.unicodeScalars.contains(where: isWide) ? 2 : 1
    }

    /// `text` cut to at most `columns` columns, with "…" where it was cut.
    static func fit(_ text: String, to columns: Int) -> String {
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

/// Long output through the reader's pager at a terminal, as git does: `$PAGER`, else `less`
/// with `LESS=FRX` (quit when it fits one screen, keep colours, leave the text on the screen).
enum Pager {
    /// Writes `text` to standard output, through the pager when `terminal` is a terminal, the
    /// text is taller than its screen and paging is wanted.
    static func show(_ text: String, on terminal: Terminal, paging: Bool,
                     environment: [String: String] = ProcessInfo.processInfo.environment) {
        let lines = text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        guard paging, terminal.isTerminal, lines >= (terminal.height ?? 24), let command = pagerCommand(environment) else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var pagerEnvironment = environment
        if pagerEnvironment["LESS"] == nil { pagerEnvironment["LESS"] = "FRX" }
        process.environment = pagerEnvironment
        let input = Pipe()
        process.standardInput = input
        do {
            try process.run()
        } catch {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        // The reader may quit the pager before reading everything: a closed pipe is no error.
        signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// `$PAGER` (none when empty or `cat`), else `less` when it is installed.
    private static func pagerCommand(_ environment: [String: String]) -> String? {
        if let pager = environment["PAGER"] {
            let trimmed = pager.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
        }
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/less") } ? "less" : nil
    }
}
