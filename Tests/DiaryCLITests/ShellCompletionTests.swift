import Foundation
import Testing

/// Shell completion as docs/command-line.md tells a user to install it: the script `diary` writes, loaded in
/// a real bash, completes commands and options from the same help text as `diary --help`.
@Suite("Shell completion")
struct ShellCompletionTests {
    /// What bash would offer after `line` (its words; the last one is being typed), as
    /// `complete -F _diary diary` calls the function.
    func bashOffers(_ words: [String]) throws -> [String] {
        let diary = try DiaryProcess()
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let line = words.joined(separator: " ")
        let script = """
            source <("$DIARY" --generate-completion-script bash) || exit 3
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            COMP_LINE='\(line)'; COMP_POINT=\(line.utf8.count)
            _diary diary '\(words.last!)' '\(words[words.count - 2])'
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try diary.run(executable: "/bin/bash", ["-c", script], environment: ["DIARY": DiaryProcess.binary])
        #expect(result.status == 0, "\(result.error)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test("bash completes a command from its first letters and a command's own options")
    func bash() throws {
        #expect(try bashOffers(["diary", "se"]) == ["search", "serve"])
        #expect(try bashOffers(["diary", "list", "--no"]) == ["--no-pager"])
        // An option a command does not take is not offered by it (backup takes no --user).
        #expect(try bashOffers(["diary", "backup", "--us"]) == [])
        #expect(try bashOffers(["diary", "new", "--us"]) == ["--user"])
    }

    @Test("zsh and fish scripts name every command")
    func otherShells() throws {
        let diary = try DiaryProcess()
        for shell in ["zsh", "fish"] {
            let script = try diary.run(["--generate-completion-script", shell])
            #expect(script.status == 0)
            for command in ["new", "list", "search", "serve", "backup", "copy"] {
                #expect(script.output.contains(command), "\(shell) script lacks \(command)")
            }
        }
    }
}
