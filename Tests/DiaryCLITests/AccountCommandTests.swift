import Foundation
import Testing

/// `diary user` and `diary token`, and how the entry commands choose whose diary to use.
@Suite("Accounts on the command line", .serialized)
struct AccountCommandTests {
    let fast = ["DIARY_BCRYPT_COST": "4"]

    @Test("user add, list and passwd; the first account adopts the entries written before it")
    func users() throws {
        let diary = try DiaryProcess()
        try diary.run(["new", "Written before any account"])
        let added = try diary.run(["user", "add", "mina"], input: "long enough pw\n", environment: fast)
        #expect(added.status == 0)
        #expect(added.output.contains("now theirs"))
        #expect(try diary.run(["user", "list"]).output.contains("mina"))
        // The only user: entry commands act as mina, and see the adopted entry.
        #expect(try diary.run(["list"]).output.contains("Written before any account"))
        #expect(try diary.run(["user", "passwd", "mina"], input: "another long pw\n", environment: fast).output.contains("0 sessions and 0 access tokens were ended"))
    }

    @Test("user errors: a short password, a taken name, a bad name, an unknown user")
    func userErrors() throws {
        let diary = try DiaryProcess()
        let short = try diary.run(["user", "add", "mina"], input: "short\n", environment: fast)
        #expect(short.status != 0)
        #expect(short.error.contains("at least 8 characters"))
        #expect(try diary.run(["user", "list"]).output.contains("no accounts yet"))
        try diary.run(["user", "add", "mina"], input: "long enough pw\n", environment: fast)
        #expect(try diary.run(["user", "add", "Mina"], input: "long enough pw\n", environment: fast).error.contains("already a user called Mina"))
        #expect(try diary.run(["user", "add", "two words"], input: "long enough pw\n", environment: fast).error.contains("cannot be a user name"))
        let unknown = try diary.run(["user", "passwd", "nobody"], input: "long enough pw\n", environment: fast)
        #expect(unknown.status != 0)
        #expect(unknown.error.contains("There is no user called nobody"))
    }

    @Test("With several users, entry commands ask whose diary, and --user keeps them apart")
    func severalUsers() throws {
        let diary = try DiaryProcess()
        try diary.run(["user", "add", "mina"], input: "long enough pw\n", environment: fast)
        try diary.run(["user", "add", "joon"], input: "long enough pw\n", environment: fast)
        let ambiguous = try diary.run(["list"])
        #expect(ambiguous.status != 0)
        #expect(ambiguous.error.contains("--user NAME"))
        try diary.run(["new", "Mina's day", "--user", "mina"])
        #expect(try diary.run(["list", "--user", "joon"]).output.contains("The diary is empty"))
        let joons = try diary.run(["search", "day", "--user", "joon"])
        #expect(joons.status == 1)
        #expect(joons.error.contains("No entry"))
        #expect(try diary.run(["list"], environment: ["DIARY_USER": "mina"]).output.contains("Mina's day"))
    }

    @Test("backup copies every account's diary and asks for no user")
    func backupOfSeveralAccounts() throws {
        let diary = try DiaryProcess()
        try diary.run(["user", "add", "mina"], input: "long enough pw\n", environment: fast)
        try diary.run(["user", "add", "joon"], input: "long enough pw\n", environment: fast)
        try diary.run(["new", "Mina's day", "--user", "mina"])
        try diary.run(["new", "Joon's day", "--user", "joon"])
        try diary.run(["new", "Joon's night", "--user", "joon"])
        try diary.run(["rm", "last", "--user", "joon"])
        let target = diary.folder.appendingPathComponent("backup.sqlite").path
        // Several users, no --user and no DIARY_USER: an entry command would ask whose diary; backup does not.
        let backup = try diary.run(["backup", target])
        #expect(backup.status == 0, "\(backup.error)")
        #expect(backup.output.contains("Backed up the diary to \(target)."))
        #expect(backup.error.isEmpty, "\(backup.error)")

        // The copy holds both accounts, each with its own entries and trash.
        let copy = ["DIARY_DATABASE": target]
        let users = try diary.run(["user", "list"], environment: copy).output
        #expect(users.contains("mina") && users.contains("joon"), "\(users)")
        let minas = try diary.run(["list", "--user", "mina"], environment: copy).output
        #expect(minas.contains("Mina's day") && !minas.contains("Joon's"), "\(minas)")
        let joons = try diary.run(["list", "--user", "joon"], environment: copy).output
        #expect(joons.contains("Joon's day") && !joons.contains("Mina's"), "\(joons)")
        #expect(try diary.run(["trash", "--user", "joon"], environment: copy).output.contains("Joon's night"))

        // --user is no option of backup: refused, nothing written.
        let other = diary.folder.appendingPathComponent("other.sqlite").path
        let withUser = try diary.run(["backup", "--user", "mina", other])
        #expect(withUser.status == 64)
        #expect(!FileManager.default.fileExists(atPath: other))
    }

    @Test("token create prints a token once; list shows names only; revoke removes it")
    func tokens() throws {
        let diary = try DiaryProcess()
        let none = try diary.run(["token", "create", "script"])
        #expect(none.status != 0)
        #expect(none.error.contains("add one with: diary user add NAME"))
        try diary.run(["user", "add", "mina"], input: "long enough pw\n", environment: fast)
        let created = try diary.run(["token", "create", "script"])
        let token = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("diary_") && token.count > 40)
        #expect(created.error.contains("only time the token is shown"))
        let listed = try diary.run(["token", "list"]).output
        #expect(listed.contains("script") && !listed.contains(token))
        #expect(try diary.run(["token", "create", "script"]).error.contains("already a token called script"))
        #expect(try diary.run(["token", "revoke", "script"]).output.contains("Revoked script"))
        #expect(try diary.run(["token", "revoke", "script"]).error.contains("There is no token called script"))
        // Tokens are kept only as hashes: the file never holds the token itself.
        for path in [diary.database, diary.database + "-wal"] {
            let file = FileManager.default.contents(atPath: path) ?? Data()
            #expect(file.range(of: Data(token.utf8)) == nil)
        }
    }
}
