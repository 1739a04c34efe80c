import Logging

/// The server's log lines, exactly as swift-log's `StreamLogHandler` writes them to standard
/// error, with the metadata turned into text only when a line is written.
///
/// Hummingbird gives every request a logger of its own (`hb.request.id`), and postgres-nio each
/// statement's (`psql_connection_id`). `StreamLogHandler` turns a logger's metadata into text
/// each time metadata is set, so every request paid for text that was almost never written:
/// about 2% of the server's CPU samples on a run of autosaves. `diary serve` makes it the
/// process's handler (`LoggingSystem.bootstrap`).
struct ServerLogHandler: LogHandler {
    private var stream: StreamLogHandler
    var metadata = Logger.Metadata()

    init(label: String) {
        stream = StreamLogHandler.standardError(label: label)
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
