import Foundation
import Testing

@Suite("The address diary serve prints", .serialized)
struct ServeAddressTests {
    @Test("On 0.0.0.0 it prints the first --host-name, which the server answers for, and lists the others")
    func wildcardPrintsHostName() throws {
        let diary = try DiaryProcess()
        let (server, said) = try Self.start(diary, ["--host", "0.0.0.0", "--port", "0", "--weather", "off",
                                                     "--host-name", "192.0.2.2", "--host-name", "Diary.Example"],
                                            until: { $0.contains("one-time code") })  // written after the addresses
        defer { server.terminate(); server.waitUntilExit() }

        let printed = try #require(said.firstMatch(of: /Diary is at http:\/\/([^\/]+)\//)?.1, "got: \(said)")
        let port = try #require(printed.split(separator: ":").last)
        #expect(printed == "192.0.2.2:\(port)")
        #expect(said.contains("It is also at http://diary.example:\(port)/."), "got: \(said)")

        // The connection goes to this computer; Host is what a browser at that address sends.
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: \(printed)",
                          "http://127.0.0.1:\(port)/api/v1/session"]
        let answer = Pipe()
        curl.standardOutput = answer
        try curl.run()
        let status = String(decoding: answer.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        #expect(status != "421" && status != "000", "got: \(status)")
    }

    /// `diary serve ARGUMENTS` started on `diary`'s database, and what it said on standard output
    /// by the time `said` holds what `until` waits for (or it stopped saying anything).
    static func start(_ diary: DiaryProcess, _ arguments: [String], until: (String) -> Bool) throws -> (Process, String) {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: DiaryProcess.binary)
        server.arguments = ["serve"] + arguments
        server.environment = diary.environment()
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        var said = ""
        while !until(said) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            said += String(decoding: more, as: UTF8.self)
        }
        return (server, said)
    }
}

@Suite("Clear errors on the command line", .serialized)
struct ClearErrorTests {
    @Test("A port out of range, or one another program holds, is named with what to do")
    func ports() throws {
        let diary = try DiaryProcess()
        let outOfRange = try diary.run(["serve", "--port", "99999", "--weather", "off"])
        #expect(outOfRange.status == 64)
        #expect(outOfRange.error.contains("--port must be from 0 to 65535"))

        let (first, said) = try ServeAddressTests.start(diary, ["--port", "0", "--weather", "off"],
                                                         until: { $0.firstMatch(of: /127\.0\.0\.1:(\d+)\//) != nil })
        defer { first.terminate(); first.waitUntilExit() }
        let port = try #require(said.firstMatch(of: /127\.0\.0\.1:(\d+)\//)?.1, "got: \(said)")
        let second = try diary.run(["serve", "--port", String(port), "--weather", "off"])
        #expect(second.status != 0)
        #expect(second.error.contains("Port \(port) on 127.0.0.1 is taken by another program"), "\(second.error)")
        #expect(second.error.contains("--port 0"))
    }

    @Test("No password on a pipe says so; backup offers no --user")
    func passwordAndBackup() throws {
        let diary = try DiaryProcess()
        let none = try diary.run(["user", "add", "bob"], input: "")
        #expect(none.status != 0)
        #expect(none.error.contains("No password came on standard input"))
        #expect(!(try diary.run(["backup", "--help"]).output.contains("--user")))
        #expect(try diary.run(["list", "--help"]).output.contains("--user"))
        let backup = try diary.run(["backup", diary.folder.appendingPathComponent("copy.sqlite").path])
        #expect(backup.status == 0, "\(backup.error)")
    }
}
