import ArgumentParser
import Foundation
import DiaryServer
import Hummingbird
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the web app and its JSON API. Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.")

    @OptionGroup var options: StoreOptions

    @Option(help: "The address to listen on. 127.0.0.1 keeps the diary to this computer.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    func run() async throws {
        let store = try options.openStore()
        var logger = Logger(label: "diary")
        logger.logLevel = .info
        let host = self.host
        let app = buildApplication(store: store, settings: ServerSettings(host: host, port: port), logger: logger) { port in
            // Written straight to the file descriptor: a pipe would otherwise hold it in a buffer.
            FileHandle.standardOutput.write(Data("Diary is at http://\(host):\(port)/ (database: \(store.path)). Press Ctrl-C to stop.\n".utf8))
        }
        try await app.runService()
    }
}
