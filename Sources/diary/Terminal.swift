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

/// Long output through the reader's pager at a terminal, as git does: `$PAGER`, else `less`
/// with `LESS=FRX` (quit when it fits one screen, keep colours, leave the text on the screen).
enum Pager {
    /// Writes `lines` (`EntryPrinter`'s) to standard output, through the pager when `terminal`
    /// is a terminal, they are taller than its screen and paging is wanted.
    static func show(_ lines: [Output.Styled], on terminal: Terminal, paging: Bool,
                     environment: [String: String] = ProcessInfo.processInfo.environment) {
        let text = lines.map { $0.text + "\n" }.joined()
        let height = text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        guard paging, terminal.isTerminal, height >= (terminal.height ?? 24), let command = pagerCommand(environment) else {
            Output.print(Output.Styled(text), terminator: "")
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
            Output.print(Output.Styled(text), terminator: "")
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
