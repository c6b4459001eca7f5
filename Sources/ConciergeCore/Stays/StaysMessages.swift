import Foundation

/// The confirmation and cancellation emails: the stay, the price breakdown and the policy,
/// rendered from the Mustache templates.
struct StaysMessages: Sendable {
    let hotel: HotelSettings
    let policy: StayCancellationPolicy
    let templates: any MessageTemplates

    func confirmation(_ record: StaysReservationRecord, guest: StaysGuest) throws -> OutboxMessage? {
        try message("stays-confirmation", record, guest: guest, key: "stays_res_\(record.id):confirmation")
    }

    func cancellation(_ record: StaysReservationRecord, guest: StaysGuest) throws -> OutboxMessage? {
        try message("stays-cancellation", record, guest: guest, key: "stays_res_\(record.id):cancellation")
    }

    private func message(_ name: String, _ record: StaysReservationRecord, guest: StaysGuest, key: String) throws
        -> OutboxMessage?
    {
        guard !guest.email.isEmpty else { return nil }
        let type = hotel.roomType(id: record.roomTypeID)
        var values = [
            "hotel": hotel.name, "firstName": guest.firstName, "code": record.confirmationCode,
            "roomType": type?.type ?? "Room", "checkIn": record.checkIn.description,
            "checkOut": record.checkOut.description, "checkInHour": String(format: "%02d:00", hotel.checkInHour),
            "checkOutHour": String(format: "%02d:00", hotel.checkOutHour), "people": String(record.people),
            "nights": String(record.checkIn.days(to: record.checkOut, in: hotel.calendar)),
            "accommodation": hotel.formatted(record.accommodationCents),
            "vat": hotel.formatted(record.vatIncludedCents), "vatPercent": String(hotel.vatPercent),
            "cityTax": hotel.formatted(record.cityTaxCents), "total": hotel.formatted(record.totalCents),
            "policy": policy.summary,
        ]
        if record.chargedCents > 0 { values["charged"] = hotel.formatted(record.chargedCents) }
        if record.refundedCents > 0 { values["refunded"] = hotel.formatted(record.refundedCents) }
        let rendered = try templates.render(name, values: values)
        return OutboxMessage.email(
            dedupeKey: key, to: guest.email, subject: rendered.subject ?? hotel.name, text: rendered.text ?? "",
            html: rendered.html)
    }
}
