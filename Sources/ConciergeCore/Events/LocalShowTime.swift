public import Foundation

/// A show's instant as the seed shows it: `YYYY-MM-DD` and `HH:MM:SS` in the venue's zone.
public enum LocalShowTime {
    public static func date(_ instant: Date, zone: String) -> String {
        let parts = components(instant, zone: zone)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    public static func time(_ instant: Date, zone: String) -> String {
        let parts = components(instant, zone: zone)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    private static func components(_ instant: Date, zone: String) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
        return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
    }
}
