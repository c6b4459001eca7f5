import Foundation

/// The messages customers receive about their bookings, rendered from the `rides-*` templates
/// (subject, text and HTML parts for email, an SMS part). Email when we know the address, else SMS.
extension BookingService {
    func confirmation(for booking: Booking) async throws -> PendingNotification? {
        var values = Self.messageValues(booking)
        values["pickup"] = booking.pickup.description
        values["destination"] = booking.destination.description
        values["pickupName"] = booking.pickup.name
        values["vehicle"] = booking.vehicleClass.rawValue
        values["flightNumber"] = booking.flightNumber
        values["passengers"] = String(booking.passengers)
        values["paid"] = Money.formatCHF(booking.priceCents)
        values["freeCancellationHours"] = String(rules.freeCancellationHours)
        return try await notify(booking, kind: "confirmation", template: "rides-confirmation", values: values)
    }

    func lateRefundNotice(for booking: Booking) async throws -> PendingNotification? {
        var values = Self.messageValues(booking)
        values["minimumAdvanceHours"] = String(rules.minimumAdvanceHours)
        values["refunded"] = Money.formatCHF(booking.priceCents)
        return try await notify(booking, kind: "late-refund", template: "rides-late-refund", values: values)
    }

    func cancellationNotice(for booking: Booking) async throws -> PendingNotification? {
        var values = Self.messageValues(booking)
        values["refunded"] = Money.formatCHF(booking.priceCents)
        return try await notify(booking, kind: "cancellation", template: "rides-cancellation", values: values)
    }

    /// Part of the fare given back by the operator; the ride stands. Plain words, by email or
    /// text, whichever the customer has.
    func partialRefundNotice(for booking: Booking, cents: Int, reason: String) async throws -> PendingNotification? {
        guard let customer = try await contact(booking.customerID) else { return nil }
        let text =
            "Concierge ride \(booking.reference): \(Money.formatCHF(cents)) is refunded to your payment method (\(reason)). Your ride stands."
        return PendingNotification(
            dedupeKey: "\(booking.id):partial-refund:\(cents):\(reason.count)",
            channel: customer.email == nil ? .sms : .email,
            recipient: customer.email ?? customer.phone.e164, subject: "Concierge ride \(booking.reference): a refund",
            body: text)
    }

    /// What every rides message names: the reference and the pickup time in Zurich.
    private static func messageValues(_ booking: Booking) -> [String: String] {
        ["reference": booking.reference, "when": ZurichTime.describe(booking.pickupAt)]
    }

    private func notify(_ booking: Booking, kind: String, template: String, values: [String: String]) async throws
        -> PendingNotification?
    {
        guard let customer = try await contact(booking.customerID) else { return nil }
        let rendered = try templates.render(template, values: values)
        let subject = try rendered.required(\.subject, "subject", of: template)
        if let email = customer.email {
            return PendingNotification(
                dedupeKey: "\(booking.id):\(kind)", channel: .email, recipient: email, subject: subject,
                body: try rendered.required(\.text, "text", of: template), htmlBody: rendered.html)
        }
        return PendingNotification(
            dedupeKey: "\(booking.id):\(kind)", channel: .sms, recipient: customer.phone.e164, subject: subject,
            body: try rendered.required(\.sms, "sms", of: template))
    }
}
