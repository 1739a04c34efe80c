import DiaryArchives
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How far a long import has got, drawn on one line of the terminal's standard error (so that
/// the report on standard output stays clean for a script), and only when that is a terminal.
final class ProgressBar: @unchecked Sendable {
    // Told from the import's task, one call at a time: the lock keeps the line whole all the same.
    private let lock = NSLock()
    private var lastDrawn = Date.distantPast

    static func onStandardError() -> ProgressBar? {
        isatty(STDERR_FILENO) == 1 ? ProgressBar() : nil
    }

    func show(_ progress: DiaryImport.Progress) {
        let line: String
        var now = true
        switch progress {
        case .read(let entries):
            line = "Read \(entries.formatted()) \(entries == 1 ? "entry" : "entries")…"
        case .photos(let done, let total):
            guard total > 0 else { return }
            // A redraw per photo would cost more than the photo for small ones.
            now = done == 0 || done == total
            let width = 30, filled = width * done / total
            line = "Photos [\(String(repeating: "#", count: filled))\(String(repeating: " ", count: width - filled))] \(done.formatted()) of \(total.formatted())"
        case .saving(let entries):
            line = "Saving \(entries.formatted()) \(entries == 1 ? "entry" : "entries")…"
        }
        draw(line, now: now)
    }

    func clear() { draw("", now: true) }

    /// Draws `line`; unless `now`, only when the last was drawn a tenth of a second ago.
    private func draw(_ line: String, now: Bool) {
        lock.lock()
        defer { lock.unlock() }
        guard now || Date().timeIntervalSince(lastDrawn) > 0.1 else { return }
        lastDrawn = Date()
        // The line holds counts alone: nothing from the file to show.
        Output.print(Output.Styled("\r\u{1B}[2K\(line)"), to: .standardError, terminator: "")
    }
}
