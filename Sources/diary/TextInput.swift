import DiaryCore
import Foundation

/// Text that is not given as arguments: piped in, or written in the writer's editor.
enum TextInput {
    /// Standard input when it is piped; `$VISUAL`/`$EDITOR` (else `vi`) when it is a terminal,
    /// starting from `initial`. Trailing blank lines are dropped.
    static func read(initial: String = "") throws -> String {
        let text = isatty(STDIN_FILENO) == 1 ? try edit(initial) : try readStandardInput()
        return String(text.reversed().drop(while: \.isWhitespace).reversed())
    }

    /// Refused unless it is UTF-8: decoding anything else would replace bytes with "�" and
    /// store words other than those sent.
    static func readStandardInput() throws -> String {
        guard let text = String(validating: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) else {
            throw InputError.notUTF8
        }
        return text
    }

    private static func edit(_ initial: String) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("diary-\(UUID().diaryString).txt")
        // 0600, made new: /tmp is shared, and the text is the diary's.
        let handle = try OwnerOnlyFile.create(atPath: file.path)
        defer { try? FileManager.default.removeItem(at: file) }
        try handle.write(contentsOf: Data(initial.utf8))
        try handle.close()
        // Through the shell, so an editor given with arguments ("code --wait") works.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(editor) \"$1\"", "sh", file.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw InputError.editorFailed(editor) }
        guard let text = String(validating: try Data(contentsOf: file), as: UTF8.self) else { throw InputError.notUTF8 }
        return text
    }
}

enum InputError: Error, CustomStringConvertible {
    case editorFailed(String)
    case nothingWritten
    case notUTF8

    var description: String {
        switch self {
        case .editorFailed(let editor): "The editor (\(editor)) did not finish cleanly; nothing was saved."
        case .nothingWritten: "Nothing was written, so no entry was saved."
        case .notUTF8: "The text is not UTF-8, so no entry was saved: convert it first (for example with iconv -t UTF-8)."
        }
    }
}
