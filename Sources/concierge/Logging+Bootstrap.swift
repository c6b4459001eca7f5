import ConciergeServer
import Logging

/// Log lines go to standard error at the configured level, as text or JSON lines
/// (`CONCIERGE_LOG_FORMAT`).
enum LogSetup {
    static func bootstrap(_ configuration: ServerConfiguration) {
        LoggingSetup.bootstrap(format: configuration.logFormat, level: configuration.logLevel)
    }
}
