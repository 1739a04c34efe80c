import Foundation

/// Runs the built `diary` binary as a person would from a shell, each test on its own diary file.
struct DiaryProcess {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sample = repository.appendingPathComponent("Tests/fixtures/seed-sample.json").path
    static let binary = ProcessInfo.processInfo.environment["DIARY_BIN"]
        ?? repository.appendingPathComponent(".build/debug/diary").path

    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    let folder: URL
    var database: String { folder.appendingPathComponent("diary.sqlite").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("diary-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// `diary ARGS` with this test's database, `LANG`, UTC, and `input` piped to standard input.
    @discardableResult
    func run(_ arguments: [String], input: String = "", language: String = "en_US.UTF-8", environment: [String: String] = [:]) throws -> Result {
        try run(executable: Self.binary, arguments, input: input, language: language, environment: environment)
    }

    /// A shell command run as `run` runs `diary` (say `umask 000; "$DIARY" new …`): `$DIARY` is
    /// the binary.
    @discardableResult
    func shell(_ command: String, input: String = "", environment: [String: String] = [:]) throws -> Result {
        try run(executable: "/bin/sh", ["-c", command], input: input, environment: environment.merging(["DIARY": Self.binary]) { $1 })
    }

    func run(executable: String, _ arguments: [String], input: String = "", language: String = "en_US.UTF-8",
                     environment: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = self.environment(language: language, environment)
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let error = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                      error: String(decoding: error, as: UTF8.self))
    }

    /// The environment a test's `diary` runs with: `environment` over the defaults; an empty
    /// value removes a variable.
    func environment(language: String = "en_US.UTF-8", _ environment: [String: String] = [:]) -> [String: String] {
        var env = ["LANG": language, "TZ": "UTC", "HOME": folder.path, "PATH": "/usr/bin:/bin", "DIARY_DATABASE": database]
        env.merge(environment) { $1 }
        return env.filter { !$0.value.isEmpty }
    }

    /// The entries as `diary list --json` gives them.
    func entries(_ count: Int = 100) throws -> [[String: Any]] {
        let result = try run(["list", "-n", String(count), "--json"])
        return (try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]]) ?? []
    }
}
