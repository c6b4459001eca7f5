import Foundation

/// Prices, dates and times as the visitor reads them: their language's conventions, the zone of
/// the place the booking is at (Zurich for rides, the venue's or the hotel's zone).
enum WebFormat {
    static let zurich = TimeZone(identifier: "Europe/Zurich")!

    /// `CHF 85.00` in English, `CHF 85.00` with Swiss German grouping (`CHF 1’250.00`) in German.
    static func money(cents: Int, currency: String = "CHF", _ language: WebLanguage) -> String {
        let formatter = NumberFormatter()
        formatter.locale = language.locale
        formatter.numberStyle = .decimal
        formatter.minimumFractionDigits = 2
        formatter.maximumFractionDigits = 2
        let number = formatter.string(from: NSNumber(value: Double(cents) / 100)) ?? String(cents / 100)
        return "\(currency.uppercased()) \(number)"
    }

    /// `Tue, 1 Dec 2026, 14:30` / `Di., 1. Dez. 2026, 14:30` in `zone`.
    static func dateTime(_ date: Date, zone: TimeZone = zurich, _ language: WebLanguage) -> String {
        format(date, zone: zone, language, template: "EEEdMMMyyyyHHmm")
    }

    /// `Tue, 1 Dec 2026` in `zone`.
    static func date(_ date: Date, zone: TimeZone = zurich, _ language: WebLanguage) -> String {
        format(date, zone: zone, language, template: "EEEdMMMyyyy")
    }

    /// `14:30` in `zone`.
    static func time(_ date: Date, zone: TimeZone = zurich, _ language: WebLanguage) -> String {
        format(date, zone: zone, language, template: "HHmm")
    }

    /// A calendar day `yyyy-MM-dd` (hotel nights) as `Tue, 1 Dec 2026`.
    static func day(_ isoDay: String, _ language: WebLanguage) -> String {
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        parser.timeZone = TimeZone(identifier: "UTC")
        parser.dateFormat = "yyyy-MM-dd"
        guard let date = parser.date(from: isoDay) else { return isoDay }
        return format(date, zone: TimeZone(identifier: "UTC")!, language, template: "EEEdMMMyyyy")
    }

    private static func format(_ date: Date, zone: TimeZone, _ language: WebLanguage, template: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = language.locale
        formatter.timeZone = zone
        formatter.setLocalizedDateFormatFromTemplate(template)
        return formatter.string(from: date)
    }
}
