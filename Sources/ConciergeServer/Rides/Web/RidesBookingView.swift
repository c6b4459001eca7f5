import ConciergeCore
import ConciergeModels
import Foundation

/// One booking as the pages show it: Zurich date and time and the price in the visitor's locale,
/// the status in their words, and what they may still do with it.
struct RidesBookingView {
    let rides: RidesWebPages
    let visit: WebVisit

    func context(_ booking: Booking) -> [String: Any] {
        let language = visit.language
        var context: [String: Any] = [
            "reference": booking.reference,
            "href": "/rides/trips/\(booking.reference)",
            "from": booking.pickup.description, "to": booking.destination.description,
            "when": WebFormat.dateTime(booking.pickupAt, language),
            "whenISO": WireDate.string(from: booking.pickupAt),
            "vehicleClass": rides.classLabel(booking.vehicleClass, visit),
            "passengers": booking.passengers,
            "price": WebFormat.money(cents: booking.priceCents, currency: booking.currency, language),
            "status": booking.state.rawValue,
            "statusLabel": rides.statusLabel(booking.state, visit),
            "cancellable": booking.state == .awaitingPayment || booking.state == .confirmed,
            "payable": booking.state == .awaitingPayment && booking.checkoutURL != nil
                && booking.paymentStatus != .failed && booking.paymentStatus != .canceled,
        ]
        if let flight = booking.flightNumber { context["flight"] = flight }
        if let checkout = booking.checkoutURL { context["checkoutURL"] = checkout }
        if let driver = booking.driver {
            context["driver"] = [
                "name": driver.name, "phone": driver.phone, "vehicle": driver.vehicle, "plate": driver.plate,
            ]
        }
        if booking.state == .confirmed {
            let deadline = booking.pickupAt.addingTimeInterval(-Double(rides.rules.freeCancellationHours) * 3600)
            context["freeUntil"] = rides.text("free_until", visit).replacingOccurrences(
                of: "{time}", with: WebFormat.dateTime(deadline, language))
        }
        return context
    }

    /// The confirmation page's headline and sentence for the booking's state.
    func headline(_ booking: Booking) -> (title: String, message: String) {
        let key: String
        if booking.state == .awaitingPayment, booking.paymentStatus == .failed || booking.paymentStatus == .canceled {
            key = "payment_failed"
        } else {
            switch booking.state {
            case .awaitingPayment, .confirmed, .expired, .refunded, .cancelled: key = booking.state.rawValue
            default: key = "under_way"
            }
        }
        return (
            rides.text("headline_\(key)", visit),
            rides.text("message_\(key)", visit, ["reference": booking.reference])
        )
    }
}
