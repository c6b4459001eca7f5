import Foundation

/// The confirmation, cancellation and late-refund emails: the stay, the price breakdown, how it
/// is paid and the policy, rendered from the Mustache templates.
struct StaysMessages: Sendable {
    let policy: StayCancellationPolicy
    let templates: any MessageTemplates

    func confirmation(_ record: StaysReservationRecord, guest: StaysGuest, hotel: HotelSettings) throws
        -> OutboxMessage?
    {
        try message(
            "stays-confirmation", record, guest: guest, hotel: hotel, key: "stays_res_\(record.id):confirmation")
    }

    func cancellation(_ record: StaysReservationRecord, guest: StaysGuest, hotel: HotelSettings) throws
        -> OutboxMessage?
    {
        try message(
            "stays-cancellation", record, guest: guest, hotel: hotel, key: "stays_res_\(record.id):cancellation")
    }

    /// A payment that came after the nights went to someone else, or after the reservation was
    /// cancelled: refunded in full.
    func lateRefund(_ record: StaysReservationRecord, guest: StaysGuest, hotel: HotelSettings) throws
        -> OutboxMessage?
    {
        try message(
            "stays-late-refund", record, guest: guest, hotel: hotel, key: "stays_res_\(record.id):late-refund")
    }

    private func message(
        _ name: String, _ record: StaysReservationRecord, guest: StaysGuest, hotel: HotelSettings, key: String
    ) throws -> OutboxMessage? {
        guard !guest.email.isEmpty else { return nil }
        let type = hotel.roomType(id: record.roomTypeID)
        var values = [
            "hotel": hotel.name, "firstName": guest.firstName, "code": record.confirmationCode,
            "roomType": type?.type ?? "Room", "checkIn": record.checkIn.description,
            "checkOut": record.checkOut.description, "checkInHour": String(format: "%02d:00", hotel.checkInHour),
            "checkOutHour": String(format: "%02d:00", hotel.checkOutHour), "people": String(record.people),
            "nights": String(record.checkIn.days(to: record.checkOut, in: hotel.calendar)),
            "accommodation": hotel.formatted(record.accommodationCents, currency: record.currency),
            "vat": hotel.formatted(record.vatIncludedCents, currency: record.currency),
            "vatPercent": String(hotel.vatPercent),
            "cityTax": hotel.formatted(record.cityTaxCents, currency: record.currency),
            "total": hotel.formatted(record.totalCents, currency: record.currency), "policy": policy.summary,
            "payment": record.prepayment.map { "paid in advance (order \($0.reference))" } ?? "paid at the hotel",
        ]
        if record.chargedCents > 0 {
            values["charged"] = hotel.formatted(record.chargedCents, currency: record.currency)
        }
        if record.refundedCents > 0 {
            values["refunded"] = hotel.formatted(record.refundedCents, currency: record.currency)
        }
        if let prepayment = record.prepayment { values["reference"] = prepayment.reference }
        let rendered = try templates.render(name, values: values)
        return OutboxMessage.email(
            dedupeKey: key, to: guest.email, subject: rendered.subject ?? hotel.name, text: rendered.text ?? "",
            html: rendered.html)
    }
}
