public import Logging
import OTel

/// Log lines go to standard error at the configured level: human lines by default, JSON lines
/// with `CONCIERGE_LOG_FORMAT=json`. Either way a line written while a span is active carries
/// its `trace_id` and `span_id`, next to the request's `request_id`, so a log line leads to its
/// trace and back.
public enum LoggingSetup {
    public static func bootstrap(format: ServerConfiguration.LogFormat, level: Logger.Level) {
        let spanMetadata = OTel.makeLoggingMetadataProvider()
        LoggingSystem.bootstrap(
            { label, metadataProvider in
                switch format {
                case .text:
                    var handler = StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
                    handler.logLevel = level
                    return handler
                case .json:
                    var handler = JSONLogHandler(label: label, metadataProvider: metadataProvider)
                    handler.logLevel = level
                    return handler
                }
            }, metadataProvider: spanMetadata)
    }
}
