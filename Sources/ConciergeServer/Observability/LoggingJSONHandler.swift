import Foundation
import Logging
import NIOCore

/// One JSON object per line: `time` (ISO 8601, UTC, milliseconds), `level`, `label`, `message`,
/// then every metadata value (`request_id`, `trace_id`, …) as a member of its own, for log
/// collectors that index fields. swift-log has no JSON handler of its own.
struct JSONLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let now: @Sendable () -> Date
    private let write: @Sendable (ByteBuffer) -> Void

    /// - Parameters:
    ///   - now: the time each line carries; tests pass a fixed one.
    ///   - write: takes one complete line, newline included; standard error unless a test
    ///     collects the lines.
    init(
        label: String, metadataProvider: Logger.MetadataProvider? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        write: @escaping @Sendable (ByteBuffer) -> Void = JSONLogHandler.writeToStandardError
    ) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.now = now
        self.write = write
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        // Later sources win: the handler's, then the provider's (trace ids), then the call's.
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let given = event.metadata { merged.merge(given) { $1 } }
        var line = JSONWriter(capacity: 256)
        line.object { json in
            json.key("time")
            json.string(Self.timestamp.format(now()))
            json.key("level")
            json.string(event.level.rawValue)
            json.key("label")
            json.string(label)
            json.key("message")
            json.string(event.message.description)
            for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
                // A metadata key may not replace the line's own members.
                json.key(Self.reserved.contains(key) ? "metadata_\(key)" : key)
                Self.write(value, into: &json)
            }
        }
        var buffer = line.buffer
        buffer.writeInteger(UInt8(ascii: "\n"))
        write(buffer)
    }

    private static let reserved: Set<String> = ["time", "level", "label", "message"]

    private static let timestamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    private static func write(_ value: Logger.Metadata.Value, into json: inout JSONWriter) {
        switch value {
        case .string(let text): json.string(text)
        case .stringConvertible(let convertible): json.string(convertible.description)
        case .array(let values): json.array(values) { json, value in write(value, into: &json) }
        case .dictionary(let members):
            json.object { json in
                for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                    json.key(key)
                    write(value, into: &json)
                }
            }
        }
    }

    /// One `write` per line, unbuffered: lines from concurrent requests never interleave, and
    /// none is lost when the process ends.
    static let writeToStandardError: @Sendable (ByteBuffer) -> Void = { buffer in
        FileHandle.standardError.write(Data(buffer.readableBytesView))
    }
}
