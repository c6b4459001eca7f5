extension ConfigurationVariable {
    /// Compressed answers (docs/operators/compression.md).
    static let compression: [ConfigurationVariable] = [
        .init(
            name: "CONCIERGE_COMPRESSION", defaultValue: "gzip",
            summary:
                "`gzip`: HTML, CSS, JS, SVG, JSON, YAML and plain-text answers go out gzip-compressed to clients that accept it; `off`: never (a reverse proxy compresses instead)."
        ),
        .init(
            name: "CONCIERGE_COMPRESSION_MIN_BYTES", defaultValue: "1024",
            summary:
                "Smaller answers go out as they are: compressing them saves less than it costs (0–10000000)."),
        .init(
            name: "CONCIERGE_COMPRESSION_LEVEL", defaultValue: "1",
            summary:
                "gzip level, 1 (fastest, as nginx) to 9 (smallest); above 1 a seat map page costs several times the CPU for a sixth fewer bytes."
        ),
    ]
}

/// What `ResponseCompressionMiddleware` does; nil when `CONCIERGE_COMPRESSION` is off.
struct CompressionSettings: Sendable, Equatable {
    var minimumBytes: Int
    var level: Int32

    init(minimumBytes: Int = 1024, level: Int32 = 1) {
        self.minimumBytes = minimumBytes
        self.level = level
    }

    init?(environment: [String: String]) throws(ConfigurationError) {
        func value(_ name: String) -> String {
            let given = environment[name]?.trimmingCharacters(in: .whitespaces) ?? ""
            return given.isEmpty ? ConfigurationVariable.named(name)?.defaultValue ?? "" : given
        }
        switch value("CONCIERGE_COMPRESSION").lowercased() {
        case "off": return nil
        case "gzip": break
        case let other: throw ConfigurationError("CONCIERGE_COMPRESSION", "'\(other)' is neither `gzip` nor `off`")
        }
        guard let minimum = Int(value("CONCIERGE_COMPRESSION_MIN_BYTES")), (0...10_000_000).contains(minimum) else {
            throw ConfigurationError("CONCIERGE_COMPRESSION_MIN_BYTES", "must be a whole number from 0 to 10000000")
        }
        guard let level = Int32(value("CONCIERGE_COMPRESSION_LEVEL")), (1...9).contains(level) else {
            throw ConfigurationError("CONCIERGE_COMPRESSION_LEVEL", "must be a whole number from 1 to 9")
        }
        self.init(minimumBytes: minimum, level: level)
    }
}
