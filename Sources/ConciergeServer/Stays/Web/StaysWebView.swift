import ConciergeCore
import Foundation

/// How the stays pages say things to one visitor: their words, and prices, nights and times in
/// their locale with the hotel's currency and time zone.
struct StaysWebView {
    let web: WebFrontEnd
    let hotel: HotelSettings
    let language: WebLanguage

    var zone: TimeZone { hotel.calendar.timeZone }

    func text(_ key: String) -> String { web.strings.text("stays", key, language) }

    /// A text with `{name}` placeholders filled in.
    func text(_ key: String, _ values: [String: String]) -> String {
        web.strings.text("stays", key, language, values)
    }

    func money(_ cents: Int, currency: String? = nil) -> String {
        WebFormat.money(cents: cents, currency: currency ?? hotel.currency, language)
    }

    func night(_ night: StayNight) -> String { WebFormat.day(night.description, language) }

    func dateTime(_ date: Date) -> String { WebFormat.dateTime(date, zone: zone, language) }

    /// `15:00` for the hotel's check-in hour.
    func hour(_ hour: Int) -> String {
        WebFormat.time(StayNight("2026-01-01")?.date(hour: hour, in: hotel.calendar) ?? Date(), zone: zone, language)
    }

    /// An API message in the visitor's language (the API's own sentence in English).
    func message(_ english: String) -> String { StaysWebMessages.text(english, web: web, language: language) }

    func people(_ count: Int) -> String {
        text(count == 1 ? "person_one" : "person_other", ["n": String(count)])
    }

    func nights(_ count: Int) -> String {
        text(count == 1 ? "night_one" : "night_other", ["n": String(count)])
    }

    func status(_ status: StaysReservationRecord.Status) -> String {
        text("status_\(status.rawValue)")
    }

    /// A room type as the pages show it, with its picture.
    func roomType(_ type: HotelSettings.RoomType) -> [String: Any] {
        [
            "id": String(type.id), "type": type.type, "description": type.description,
            "image": "/stays/images/\(type.image)",
            "imageAlt": text("image_alt", ["type": type.type, "description": type.description]),
            "capacity": text("capacity", ["people": people(type.capacity)]),
            "prepay": type.paymentPolicy == .prepay,
            "payment": text(type.paymentPolicy == .prepay ? "pay_online" : "pay_at_hotel"),
        ]
    }

    /// Each night's rate, the city tax, the VAT it contains and the total.
    func breakdown(
        nights: [StayNight], nightlyCents: [Int], cityTaxCents: Int, vatCents: Int, totalCents: Int, currency: String
    ) -> [String: Any] {
        [
            "nights": zip(nights, nightlyCents).map { night, cents in
                ["night": self.night(night), "price": money(cents, currency: currency)]
            },
            "cityTax": money(cityTaxCents, currency: currency),
            "vat": text("vat_included", ["amount": money(vatCents, currency: currency), "percent": vatPercent]),
            "total": money(totalCents, currency: currency),
        ]
    }

    /// The cancellation policy in words, with the moment free cancellation ends for `checkIn`.
    func policy(checkIn: StayNight, freeHours: Int, firstNightCents: Int, currency: String) -> String {
        let checkInAt = checkIn.date(hour: hotel.checkInHour, in: hotel.calendar)
        return text(
            "policy_text",
            [
                "until": dateTime(checkInAt.addingTimeInterval(-Double(freeHours) * 3600)),
                "hours": String(freeHours), "first": money(firstNightCents, currency: currency),
            ])
    }

    private var vatPercent: String {
        let formatter = NumberFormatter()
        formatter.locale = language.locale
        formatter.maximumFractionDigits = 2
        return formatter.string(from: NSNumber(value: hotel.vatPercent)) ?? String(hotel.vatPercent)
    }
}
