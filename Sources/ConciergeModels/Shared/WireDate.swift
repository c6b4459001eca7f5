public import Foundation

/// Times on the wire: ISO 8601 in UTC with milliseconds (`2025-01-15T13:00:00.000Z`); parsing
/// also accepts them without fractional seconds and with an explicit offset.
public enum WireDate {
    public static func string(from date: Date) -> String {
        // Truncate to whole milliseconds so the text round-trips exactly.
        let millis = (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000
        return Date(timeIntervalSince1970: millis).formatted(withFractions)
    }

    public static func date(from text: String) -> Date? {
        (try? withFractions.parse(text)) ?? (try? plain.parse(text))
    }

    private static let withFractions = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
    private static let plain = Date.ISO8601FormatStyle(timeZone: .gmt)
}
