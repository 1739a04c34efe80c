import ArgumentParser
import Foundation
import Logging

/// `diary`: a private diary on the command line, and the server of its web app.
@main
struct DiaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diary",
        abstract: "A private diary that saves itself.",
        discussion: """
            Entries live in one database file: --database PATH, or DIARY_DATABASE, or by default \
            $XDG_DATA_HOME/diary/diary.sqlite (~/.local/share/diary/diary.sqlite).
            Wherever an ID is asked for, a unique prefix of it will do, and last, -1, -2, … name \
            the newest entries.
            """,
        version: DiaryVersion.current,
        subcommands: [
            NewCommand.self, ListCommand.self, ShowCommand.self, EditCommand.self, RemoveCommand.self,
            RestoreCommand.self, TrashCommand.self, SearchCommand.self, ImportCommand.self, ExportCommand.self,
            TagsCommand.self, TodayCommand.self, CalendarCommand.self, StatsCommand.self, BackupCommand.self, CopyCommand.self, ServeCommand.self, UserCommand.self,
            TokenCommand.self,
        ]
    )

    /// Refuses an argument that is not UTF-8 before anything is done: `CommandLine.arguments`
    /// would replace its bad bytes with "�", and words other than those typed would be saved.
    /// Then runs the command as ArgumentParser's `main` does, its errors written by `Output`.
    static func main() async {
        // Every logger (the server's, the storage's, postgres-nio's) writes through `Output`.
        LoggingSystem.bootstrap(ServerLogHandler.init)
        if let position = Arguments.firstNotUTF8() {
            Output.print("""
                Error: argument \(position) is not UTF-8, so nothing was done: give it as UTF-8 \
                (for example convert it with iconv -t UTF-8).
                """, to: .standardError)
            // 64 (EX_USAGE), as for the arguments ArgumentParser finds wrong.
            Self.exit(withError: ExitCode.validationFailure)
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let (typed, nearest) = Arguments.mistypedCommand(arguments, known: commandNames) {
            Output.print("Error: diary has no command \"\(typed)\". Did you mean \"\(nearest)\"?", to: .standardError)
            Self.exit(withError: ExitCode.validationFailure)
        }
        do {
            var command = try await asyncParseAsRoot(Arguments.forParsing(arguments))
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(showing: error)
        }
    }

    /// ArgumentParser's `exit(withError:)`, its message written through `Output`: an error may
    /// quote what was typed (an id, a date) or read (a record, a ZIP's member).
    static func exit(showing error: any Error) -> Never {
        let message = fullMessage(for: error), status = exitCode(for: error)
        // Help and the version are asked for: standard output, as ArgumentParser writes them.
        if !message.isEmpty { Output.print(message, to: status == .success ? .standardOutput : .standardError) }
        Self.exit(withError: status)
    }

    static var commandNames: [String] {
        configuration.subcommands.map { $0.configuration.commandName ?? "" } + ["help"]
    }
}

/// The program's arguments, before ArgumentParser reads them.
enum Arguments {
    /// The options of the entry commands that take a value: what follows them is that value.
    static let valueOptions: Set<String> = ["--database", "--database-password-file", "--user", "--body", "--title", "--date", "-n"]

    /// `arguments` as ArgumentParser can read them: `-1`, `-2`, … naming an entry become
    /// `EntryReference`'s `~1`, `~2` (else they read as options), and `-n5` becomes `-n 5`.
    static func forParsing(_ arguments: [String]) -> [String] {
        let namesEntries = arguments.first.map(EntryReference.commands.contains) ?? false
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return result + arguments[index...] }
            let afterOption = index > 0 && valueOptions.contains(arguments[index - 1])
            if namesEntries, !afterOption, argument.count > 1, argument.first == "-", argument.dropFirst().allSatisfy(\.isASCIIDigit) {
                result.append(EntryReference.recentMark + argument.dropFirst())
            } else if !afterOption, argument.count > 2, argument.hasPrefix("-n"), argument.dropFirst(2).allSatisfy(\.isASCIIDigit) {
                result += ["-n", String(argument.dropFirst(2))]
            } else {
                result.append(argument)
            }
        }
        return result
    }

    /// The first argument when it is no command but close to one (`lsit`), and that command.
    static func mistypedCommand(_ arguments: [String], known: [String]) -> (String, String)? {
        guard let typed = arguments.first, !typed.hasPrefix("-"), !known.contains(typed) else { return nil }
        let ranked = known.map { ($0, editDistance(typed.lowercased(), $0)) }.min { $0.1 < $1.1 }
        guard let (nearest, distance) = ranked, distance <= max(1, min(2, typed.count / 2)) else { return nil }
        return (typed, nearest)
    }

    /// Levenshtein's distance: the fewest letters added, removed or changed to make `a` into `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, letter) in a.enumerated() {
            var current = [i + 1]
            for (j, other) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (letter == other ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The position (1 for the first after the command's name) of the first argument that is
    /// not valid UTF-8, if any.
    static func firstNotUTF8() -> Int? {
        (0..<Int(CommandLine.argc)).dropFirst().first { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return false }
            return String(validatingCString: argument) == nil
        }
    }
}

/// This build's version, as `diary --version` prints it.
enum DiaryVersion {
    static let current = "0.7.0"
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
