import Logging

/// The server's log lines (and the storage's, for any command), as swift-log's
/// `StreamLogHandler` writes them, on standard error through `Output`: a line may quote a
/// request's path or a provider's answer. The metadata is turned into text only when a line is
/// written.
///
/// Hummingbird gives every request a logger of its own (`hb.request.id`), and postgres-nio each
/// statement's (`psql_connection_id`). `StreamLogHandler` turns a logger's metadata into text
/// each time metadata is set, so every request paid for text that was almost never written:
/// about 2% of the server's CPU samples on a run of autosaves. `diary` makes it the process's
/// handler (`LoggingSystem.bootstrap`).
struct ServerLogHandler: LogHandler {
    private var stream: StreamLogHandler
    var metadata = Logger.Metadata()

    init(label: String) {
        stream = StreamLogHandler(label: label, stream: LogOutput())
    }

    var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var stream = stream
        stream.metadata = metadata
        stream.log(event: event)
    }
}

/// Standard error as `Output` writes it, for swift-log.
struct LogOutput: TextOutputStream, Sendable {
    mutating func write(_ text: String) { Output.print(text, to: .standardError, terminator: "") }
}
