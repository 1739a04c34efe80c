import Foundation
import GRDB
import Testing

/// What Diary does to files: one that is not a diary is never changed in any way, and the files
/// and folders Diary makes are its owner's alone, whatever the umask.
@Suite("Diary's files")
struct DiaryFileTests {
    /// A file as it is: every byte, and when it last changed.
    struct Snapshot: Equatable {
        var bytes: Data
        var modified: Date
    }

    static func snapshot(_ path: String) throws -> Snapshot {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return Snapshot(bytes: try Data(contentsOf: URL(fileURLWithPath: path)), modified: try #require(attributes[.modificationDate] as? Date))
    }

    /// The side files SQLite would leave beside `path` had it opened it for writing.
    static func sideFiles(_ path: String) -> [String] {
        ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) }
    }

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// Every way a command opens the diary: reading, writing, and serving it.
    static let openings: [[String]] = [["list"], ["new", "Written here?"], ["serve", "--port", "0", "--weather", "off"]]

    /// Each of `openings` fails, saying `words`.
    static func expectRefusedByEveryOpening(_ diary: DiaryProcess, saying words: String) throws {
        for arguments in openings {
            let refused = try diary.run(arguments)
            #expect(refused.status != 0, "\(arguments)")
            #expect(refused.error.contains(words), "\(arguments): \(refused.error)")
        }
    }

    @Test("Another program's SQLite database is refused by every command and left byte for byte", arguments: ["delete", "wal"])
    func anotherProgramsDatabase(journalMode: String) throws {
        let diary = try DiaryProcess()
        // Another program's notes, in its own journal mode, closed cleanly (no -wal or -shm).
        let notes = try DatabaseQueue(path: diary.database)
        try notes.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = \(journalMode)")
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO note (text) VALUES ('not a diary')")
        }
        try notes.close()
        let before = try Self.snapshot(diary.database)

        try Self.expectRefusedByEveryOpening(diary, saying: "another program's SQLite database; it was left untouched")

        #expect(try Self.snapshot(diary.database) == before)
        #expect(Self.sideFiles(diary.database).isEmpty)
    }

    @Test("Another GRDB app's database is refused as another program's and left byte for byte, whatever its migrations",
          arguments: ["INSERT INTO grdb_migrations VALUES ('v1'); CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)",
                      "",
                      "CREATE TABLE entries (id INTEGER PRIMARY KEY, title TEXT, body TEXT)"])
    func anotherGRDBAppsDatabase(schema: String) throws {
        let diary = try DiaryProcess()
        let other = try DatabaseQueue(path: diary.database)
        try other.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            if !schema.isEmpty { try db.execute(sql: schema) }
        }
        try other.close()
        let before = try Self.snapshot(diary.database)

        try Self.expectRefusedByEveryOpening(diary, saying: "another program's SQLite database; it was left untouched")

        #expect(try Self.snapshot(diary.database) == before)
        #expect(Self.sideFiles(diary.database).isEmpty)
    }

    @Test("A diary written by a newer Diary is refused as such and left byte for byte")
    func newerDiary() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Written by this Diary"])
        let newer = try DatabaseQueue(path: diary.database)
        try newer.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99-from-the-future'); PRAGMA wal_checkpoint(TRUNCATE)")
        }
        try newer.close()
        let before = try Self.snapshot(diary.database)
        try Self.expectRefusedByEveryOpening(diary, saying: "was written by a newer version of Diary")
        #expect(try Self.snapshot(diary.database) == before)
    }

    @Test("A file that is not SQLite at all is refused and left byte for byte", arguments: ["text", "garbage", "png"])
    func notSQLite(kind: String) throws {
        let diary = try DiaryProcess()
        let contents: Data
        switch kind {
        case "text": contents = Data("Dear diary,\nthis is a plain text file that happens to be where the diary should be.\n".utf8)
        case "garbage": contents = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        default: contents = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 200))
        }
        try contents.write(to: URL(fileURLWithPath: diary.database))
        let before = try Self.snapshot(diary.database)

        try Self.expectRefusedByEveryOpening(diary, saying: "is not a diary database")

        #expect(try Self.snapshot(diary.database) == before)
        #expect(Self.sideFiles(diary.database).isEmpty)
    }

    @Test("A folder where the diary should be is refused, said to be a folder, and left empty")
    func folder() throws {
        let diary = try DiaryProcess()
        try FileManager.default.createDirectory(atPath: diary.database, withIntermediateDirectories: false)

        try Self.expectRefusedByEveryOpening(diary, saying: "is a folder, not a diary file")

        #expect(try FileManager.default.contentsOfDirectory(atPath: diary.database).isEmpty)
        #expect(Self.sideFiles(diary.database).isEmpty)
    }

    @Test("An empty file becomes a new diary, as SQLite treats it")
    func emptyFile() throws {
        let diary = try DiaryProcess()
        FileManager.default.createFile(atPath: diary.database, contents: Data())

        #expect(try diary.run(["new", "First words"]).status == 0)
        #expect(try diary.entries().map { $0["title"] as? String } == ["First words"])
    }

    @Test("With umask 000 the default folder is 0700, and the diary, its side files, backups and exports are 0600")
    func ownerOnly() throws {
        let diary = try DiaryProcess()
        let data = diary.folder.appendingPathComponent("data").path
        let environment = ["DIARY_DATABASE": "", "XDG_DATA_HOME": data]
        let database = data + "/diary/diary.sqlite"

        let written = try diary.shell(#"umask 000; "$DIARY" new Private --body "for my eyes only""#, environment: environment)
        #expect(written.status == 0, "\(written.error)")
        #expect(try Self.mode(data) == 0o700)
        #expect(try Self.mode(data + "/diary") == 0o700)
        #expect(try Self.mode(database) == 0o600)

        let backup = diary.folder.appendingPathComponent("backup.sqlite").path
        let export = diary.folder.appendingPathComponent("export.json").path
        #expect(try diary.shell(#"umask 000; "$DIARY" backup "$1""#.replacingOccurrences(of: "$1", with: backup), environment: environment).status == 0)
        #expect(try diary.shell(#"umask 000; "$DIARY" export --output "$1""#.replacingOccurrences(of: "$1", with: export), environment: environment).status == 0)
        #expect(try Self.mode(backup) == 0o600)
        #expect(try Self.mode(export) == 0o600)

        // The side files exist while a process has the diary open: a server's.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/bin/sh")
        server.arguments = ["-c", #"umask 000; exec "$DIARY" serve --port 0 --weather off"#]
        server.environment = diary.environment(environment).merging(["DIARY": DiaryProcess.binary]) { $1 }
        let output = Pipe()
        server.standardOutput = output
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("Diary is at") {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            said += more
        }
        #expect(try Self.mode(database + "-wal") == 0o600)
        #expect(try Self.mode(database + "-shm") == 0o600)
    }

    @Test("The editor's temporary file is 0600 with umask 000")
    func editorFile() throws {
        let diary = try DiaryProcess()
        // An "editor" that notes its file's mode, then writes an entry into it.
        let editor = diary.folder.appendingPathComponent("editor.sh").path
        try #"""
            #!/bin/sh
            stat -c %a "$1" > "$(dirname "$0")/mode"
            printf 'From the editor\n' > "$1"
            """#.write(toFile: editor, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor)

        // `script` gives `diary new` a terminal, so it opens the editor.
        let result = try diary.shell(#"umask 000; script -qec "\"$DIARY\" new" /dev/null"#,
                                     environment: ["EDITOR": editor, "TMPDIR": diary.folder.path])
        #expect(result.status == 0, "\(result.output) \(result.error)")
        let mode = try String(contentsOfFile: diary.folder.appendingPathComponent("mode").path, encoding: .utf8)
        #expect(mode.trimmingCharacters(in: .whitespacesAndNewlines) == "600")
        #expect(try diary.entries().map { $0["title"] as? String } == ["From the editor"])
    }
}
