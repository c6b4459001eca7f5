import Foundation
import Logging
import NIOCore
import Testing

@testable import ConciergeServer

/// The JSON line handler: one object per line, with the time, level, label, message and every
/// metadata value, escaped so that any message reads back exactly.
@Suite struct TraceJSONLogHandlerTests {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var buffers: [ByteBuffer] = []

        func append(_ buffer: ByteBuffer) { lock.withLock { buffers.append(buffer) } }
        var all: [String] { lock.withLock { buffers.map { String(buffer: $0) } } }
    }

    static let moment = Date(timeIntervalSince1970: 1_790_000_000.042)

    static func logger(_ lines: Lines, provider: Logger.MetadataProvider? = nil) -> Logger {
        var logger = Logger(label: "concierge.test") { label in
            JSONLogHandler(label: label, metadataProvider: provider, now: { moment }, write: lines.append)
        }
        logger.logLevel = .info
        return logger
    }

    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func aLineHasTheTimeLevelLabelMessageAndMetadata() throws {
        let lines = Lines()
        var logger = Self.logger(lines)
        logger[metadataKey: "request_id"] = "req-1"
        logger.warning("booking refused", metadata: ["status": "409", "seats": ["A1", "A2"], "figures": ["n": "2"]])
        logger.debug("below the level: not written")

        #expect(lines.all.count == 1)
        let line = try #require(lines.all.first)
        #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1)
        let object = try Self.object(line)
        #expect(object["time"] as? String == "2026-09-21T14:13:20.042Z")
        #expect(object["level"] as? String == "warning")
        #expect(object["label"] as? String == "concierge.test")
        #expect(object["message"] as? String == "booking refused")
        #expect(object["request_id"] as? String == "req-1")
        #expect(object["status"] as? String == "409")
        #expect(object["seats"] as? [String] == ["A1", "A2"])
        #expect(object["figures"] as? [String: String] == ["n": "2"])
    }

    @Test func quotesBackslashesNewlinesAndControlCharactersAreEscaped() throws {
        let lines = Lines()
        let nasty = "say \"hi\"\\ then\nnew line\r\ttab \u{01}\u{1F} end ünïcødé 🚕"
        Self.logger(lines).info("\(nasty)", metadata: ["key \"quoted\"\n": .string(nasty)])

        let line = try #require(lines.all.first)
        #expect(line.dropLast().allSatisfy { $0 != "\n" && $0 != "\r" && $0 != "\t" })
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(line.contains(#"\u0001"#) && line.contains(#"\u001f"#))
        let object = try Self.object(line)
        #expect(object["message"] as? String == nasty)
        #expect(object["key \"quoted\"\n"] as? String == nasty)
    }

    @Test func metadataCannotReplaceTheLinesOwnMembers() throws {
        let lines = Lines()
        Self.logger(lines).info("real", metadata: ["message": "forged", "level": "critical"])
        let object = try Self.object(try #require(lines.all.first))
        #expect(object["message"] as? String == "real")
        #expect(object["level"] as? String == "info")
        #expect(object["metadata_message"] as? String == "forged")
    }

    @Test func theProvidersMetadataIsIncludedAndTheCallsWins() throws {
        let lines = Lines()
        let provider = Logger.MetadataProvider { ["trace_id": "4bf92f3577b34da6a3ce929d0e0e4736", "span_id": "x"] }
        Self.logger(lines, provider: provider).info("in a span", metadata: ["span_id": "given"])
        let object = try Self.object(try #require(lines.all.first))
        #expect(object["trace_id"] as? String == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(object["span_id"] as? String == "given")
    }
}
