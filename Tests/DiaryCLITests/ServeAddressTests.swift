import Foundation
import Testing

@Suite("The address diary serve prints", .serialized)
struct ServeAddressTests {
    @Test("On 0.0.0.0 it prints the first --host-name, which the server answers for, and lists the others")
    func wildcardPrintsHostName() throws {
        let diary = try DiaryProcess()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: DiaryProcess.binary)
        server.arguments = ["serve", "--host", "0.0.0.0", "--port", "0", "--weather", "off",
                            "--host-name", "192.0.2.2", "--host-name", "Diary.Example"]
        server.environment = diary.environment()
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        var said = ""
        // The setup code (the diary has no account) is written after the addresses.
        while !said.contains("one-time code") {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            said += String(decoding: more, as: UTF8.self)
        }

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
}
