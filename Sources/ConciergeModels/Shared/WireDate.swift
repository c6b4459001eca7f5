public import Foundation

/// Times on the wire: ISO 8601 in UTC with milliseconds (`2025-01-15T13:00:00.000Z`); parsing
/// also accepts them without fractional seconds and with an explicit offset.
public enum WireDate {
    public static func string(from date: Date) -> String {
        // Whole milliseconds computed by hand: the formatter's own fractions can print .122 for
        // a time stored as .1229999.
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (seconds, fraction) = millis.quotientAndRemainder(dividingBy: 1000)
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(plain)
        let digits = String(fraction)
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    public static func date(from text: String) -> Date? {
        (try? withFractions.parse(text)) ?? (try? plain.parse(text))
    }

    private static let withFractions = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
    private static let plain = Date.ISO8601FormatStyle(timeZone: .gmt)
}
