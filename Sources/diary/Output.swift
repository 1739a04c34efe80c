import Foundation

/// The one way `diary` writes to standard output and standard error.
///
/// Text from a file, the database or the command line (an entry, an import's record or unknown
/// field, a ZIP's member, an id typed, an error that quotes any of them) may hold sequences a
/// terminal would obey: clear the screen, or set the clipboard with OSC 52. Here its control
/// characters are shown instead (`TerminalText`), whichever command wrote it, so that no
/// message, report or error has to remember to.
enum Output {
    enum Stream {
        /// What a command gives: shown at a terminal; piped or redirected, byte for byte what
        /// was saved, for scripts (`list | grep`, `export > file`).
        case standardOutput
        /// What diary tells a person (errors, warnings, questions, progress, the server's log):
        /// always shown. No script needs its bytes exact, and it is often kept in a log that
        /// is read at a terminal later.
        case standardError
    }

    /// Text made for the terminal by `EntryPrinter` or the progress bar: its words shown
    /// already, with diary's own sequences around them (colour, the redraw of a line). The one
    /// kind of text written as it is.
    struct Styled {
        let text: String
        init(_ text: String) { self.text = text }
    }

    /// `text`, then `terminator`, on `stream`, its control characters shown as `stream` wants.
    static func print(_ text: String, to stream: Stream = .standardOutput, terminator: String = "\n") {
        send(shown(text + terminator, on: stream), to: stream)
    }

    /// `styled`, then `terminator`, on `stream`, as it is.
    static func print(_ styled: Styled, to stream: Stream = .standardOutput, terminator: String = "\n") {
        send(styled.text + terminator, to: stream)
    }

    /// UTF-8 `bytes` on standard output as `print` writes text (an export, a batch of whole
    /// entries at a time); a failure to write is thrown, so an export cut short says so.
    static func write(_ bytes: [UInt8]) throws {
        guard standardOutputIsTerminal else { return try FileHandle.standardOutput.write(contentsOf: bytes) }
        try FileHandle.standardOutput.write(contentsOf: Data(TerminalText.visible(String(decoding: bytes, as: UTF8.self)).utf8))
    }

    /// `text` as it may be written to `stream`.
    private static func shown(_ text: String, on stream: Stream) -> String {
        stream == .standardError || standardOutputIsTerminal ? TerminalText.visible(text) : text
    }

    private static let standardOutputIsTerminal = isatty(STDOUT_FILENO) == 1

    /// Written straight to the file descriptor, not through a buffer: a line comes out when it
    /// is written (`serve`'s address, to a pipe), and in order with the other stream's. As with
    /// `print`, a line that cannot be written is no error of the command's.
    private static func send(_ text: String, to stream: Stream) {
        let handle = stream == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError
        try? handle.write(contentsOf: Data(text.utf8))
    }
}
