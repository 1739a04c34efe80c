import ArgumentParser
import Foundation

/// `diary`: a private diary on the command line, and the server of its web app.
@main
struct DiaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diary",
        abstract: "A private diary that saves itself.",
        discussion: """
            Entries live in one database file: --database PATH, or DIARY_DATABASE, or by default \
            $XDG_DATA_HOME/diary/diary.sqlite (~/.local/share/diary/diary.sqlite).
            Wherever an ID is asked for, a unique prefix of it will do.
            """,
        subcommands: [
            NewCommand.self, ListCommand.self, ShowCommand.self, EditCommand.self, RemoveCommand.self,
            RestoreCommand.self, TrashCommand.self, SearchCommand.self, ImportCommand.self, ExportCommand.self,
            BackupCommand.self, CopyCommand.self, ServeCommand.self, UserCommand.self, TokenCommand.self,
        ]
    )

    /// Refuses an argument that is not UTF-8 before anything is done: `CommandLine.arguments`
    /// would replace its bad bytes with "�", and words other than those typed would be saved.
    static func main() async {
        if let position = Arguments.firstNotUTF8() {
            FileHandle.standardError.write(Data("""
                Error: argument \(position) is not UTF-8, so nothing was done: give it as UTF-8 \
                (for example convert it with iconv -t UTF-8).\n
                """.utf8))
            // 64 (EX_USAGE), as for the arguments ArgumentParser finds wrong.
            Self.exit(withError: ExitCode.validationFailure)
        }
        await main(nil)
    }
}

/// The program's arguments as the system gave them, before Swift decodes them.
enum Arguments {
    /// The position (1 for the first after the command's name) of the first argument that is
    /// not valid UTF-8, if any.
    static func firstNotUTF8() -> Int? {
        (0..<Int(CommandLine.argc)).dropFirst().first { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return false }
            return String(validatingCString: argument) == nil
        }
    }
}
