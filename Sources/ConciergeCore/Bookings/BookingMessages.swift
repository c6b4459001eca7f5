import Foundation

/// The texts customers receive about their bookings. Email when we know the address, else SMS.
extension BookingService {
    func confirmation(for booking: Booking) async throws -> PendingNotification? {
        let when = ZurichTime.describe(booking.pickupAt)
        let body = """
            Your ride \(booking.reference) is confirmed.

            Pickup: \(booking.pickup.description)
            Destination: \(booking.destination.description)
            When: \(when)
            Vehicle: \(booking.vehicleClass.rawValue)\(booking.flightNumber.map { ", flight \($0)" } ?? "")
            Passengers: \(booking.passengers)
            Paid: \(Money.formatCHF(booking.priceCents))

            What happens next: your chauffeur's name and car are sent to you before the ride. \
            You can cancel free of charge until \(rules.freeCancellationHours) hours before pickup.
            """
        return try await notify(
            booking, kind: "confirmation", subject: "Your ride \(booking.reference) is confirmed", body: body,
            sms:
                "Concierge: ride \(booking.reference) confirmed for \(when) from \(booking.pickup.name). Paid \(Money.formatCHF(booking.priceCents))."
        )
    }

    func lateRefundNotice(for booking: Booking) async throws -> PendingNotification? {
        let body = """
            Your payment for ride \(booking.reference) arrived after the quote had expired, and the pickup \
            (\(ZurichTime.describe(booking.pickupAt))) is now less than \(rules.minimumAdvanceHours) hours away, \
            so we could not confirm the ride. We have refunded \(Money.formatCHF(booking.priceCents)) in full.
            """
        return try await notify(
            booking, kind: "late-refund", subject: "Ride \(booking.reference): payment refunded", body: body,
            sms:
                "Concierge: payment for ride \(booking.reference) came too late; refunded \(Money.formatCHF(booking.priceCents))."
        )
    }

    func cancellationNotice(for booking: Booking) async throws -> PendingNotification? {
        let body = """
            Your ride \(booking.reference) on \(ZurichTime.describe(booking.pickupAt)) is cancelled. \
            We have refunded \(Money.formatCHF(booking.priceCents)).
            """
        return try await notify(
            booking, kind: "cancellation", subject: "Ride \(booking.reference) cancelled", body: body,
            sms: "Concierge: ride \(booking.reference) cancelled; refunded \(Money.formatCHF(booking.priceCents)).")
    }

    private func notify(_ booking: Booking, kind: String, subject: String, body: String, sms: String) async throws
        -> PendingNotification?
    {
        guard let customer = try await contact(booking.customerID) else { return nil }
        if let email = customer.email {
            return PendingNotification(
                dedupeKey: "\(booking.id):\(kind)", channel: .email, recipient: email, subject: subject, body: body)
        }
        return PendingNotification(
            dedupeKey: "\(booking.id):\(kind)", channel: .sms, recipient: customer.phone.e164, subject: subject,
            body: sms)
    }
}
