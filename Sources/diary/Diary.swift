import ArgumentParser

/// `diary`: a private diary on the command line, and the server of its web app.
@main
struct Diary: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diary",
        abstract: "A private diary that saves itself.",
        discussion: """
            Entries live in one SQLite file: --database PATH, or DIARY_DATABASE, or by default \
            $XDG_DATA_HOME/diary/diary.sqlite (~/.local/share/diary/diary.sqlite).
            Wherever an ID is asked for, a unique prefix of it will do.
            """,
        subcommands: [
            NewCommand.self, ListCommand.self, ShowCommand.self, EditCommand.self, RemoveCommand.self,
            RestoreCommand.self, TrashCommand.self, SearchCommand.self, ImportCommand.self, ExportCommand.self,
            BackupCommand.self, ServeCommand.self, UserCommand.self, TokenCommand.self,
        ]
    )
}
