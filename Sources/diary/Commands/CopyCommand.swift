import ArgumentParser
import DiaryBackends
import DiaryCore
import Foundation

/// `diary copy FROM TO`: a whole installation from one database to another, a file and
/// a PostgreSQL database in either direction.
struct CopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Move a whole installation (accounts, access tokens, every diary with its trash and versions) to another database.",
        discussion: """
            FROM and TO are each a diary file or a postgres:// URL. TO must be empty (a new file, or a database \
            with no Diary data yet). The copy is all or nothing, and the counts are checked before it is kept. \
            Sessions are not copied: people log in again. Stop `diary serve` on FROM first, or copy a backup.
            """)

    @Argument(help: ArgumentHelp("The database to copy: a diary file or a postgres:// URL.", valueName: "from"))
    var from: String

    @Argument(help: ArgumentHelp("The empty database to copy into: a new file or a postgres:// URL.", valueName: "to"))
    var to: String

    @Option(name: .long, help: ArgumentHelp("A file whose first line is FROM's PostgreSQL password (else PGPASSWORD, then PGPASSFILE or ~/.pgpass).", valueName: "path"))
    var fromPasswordFile: String?

    @Option(name: .long, help: ArgumentHelp("A file whose first line is TO's PostgreSQL password.", valueName: "path"))
    var toPasswordFile: String?

    func run() async throws {
        let isFile = { (database: String) in !database.contains("://") }
        if isFile(from) && !FileManager.default.fileExists(atPath: from) {
            throw ValidationError("\(from) does not exist: give the diary file (or postgres:// URL) to copy.")
        }
        let madeFile = isFile(to) && !FileManager.default.fileExists(atPath: to)
        do {
            let source = try await Backends.open(from, for: .command, passwordFile: fromPasswordFile)
            let destination = try await Backends.open(to, for: .command, passwordFile: toPasswordFile)
            let counts = try await Backends.copy(from: source, to: destination)
            Output.print("Copied \(counts) to \(destination.location).")
        } catch {
            // A new file that got nothing is not left behind.
            if madeFile { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: to + suffix) } }
            throw error
        }
    }
}
