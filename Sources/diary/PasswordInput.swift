import Foundation

/// A password typed at a terminal without echo, or read as the first line of piped input.
enum PasswordInput {
    static func read(prompt: String, confirm: Bool) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            // Piped: the first line. None at all (an empty pipe, /dev/null) is said as such, not
            // taken for a password that is too short.
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw CommandError("No password came on standard input: pipe it in as the first line (printf '%s\\n' \"$PASSWORD\" | diary user …), or run the command at a terminal to type it.")
            }
            return line
        }
        let first = try readHidden(prompt)
        if confirm, try readHidden("Again, to be sure: ") != first { throw CommandError("The two passwords differ; nothing was changed.") }
        return first
    }

    private static func readHidden(_ prompt: String) throws -> String {
        Output.print(prompt, to: .standardError, terminator: "")
        var old = termios()
        tcgetattr(STDIN_FILENO, &old)
        var silent = old
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &old)
            Output.print("", to: .standardError)
        }
        return readLine(strippingNewline: true) ?? ""
    }
}
