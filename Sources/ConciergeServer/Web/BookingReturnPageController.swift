import ConciergeCore
import Foundation
import Hummingbird

/// `GET /rides/booking-confirmed?ref=VRM-1234&t=<secret>`: where the checkout sends the
/// customer back. Only the booking's own secret opens it: references are short digit codes and
/// could be enumerated, so without the secret the page answers exactly as for a reference that does not
/// exist. A booking still waiting for payment is checked with the provider first, so the page is
/// right even before the webhook arrives.
struct BookingReturnPageController {
    let bookings: BookingService
    let payments: any PaymentProvider
    let dispatcher: PaymentDispatcher

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("booking-confirmed", use: page)
    }

    @Sendable func page(request: Request, context: AppRequestContext) async throws -> Response {
        let reference = request.optionalQuery("ref") ?? ""
        let secret = request.optionalQuery("t") ?? ""
        guard reference.count <= 24, secret.count <= 100,
            var booking = try await bookings.publicBooking(reference: reference, secret: secret)
        else {
            return HTMLPage.response(
                title: "Booking not found",
                body:
                    "<h1>Booking not found</h1><p>Check the link in your confirmation, or open the booking in the app.</p>",
                status: .notFound)
        }
        if booking.state == .awaitingPayment, let paymentID = booking.paymentID {
            do {
                let snapshot = try await payments.fetchPayment(id: paymentID)
                if try await dispatcher.dispatch(snapshot, provider: payments.name) != nil {
                    booking =
                        try await bookings.publicBooking(reference: booking.reference, secret: secret) ?? booking
                }
            } catch {
                context.logger.warning("return page: payment status unavailable: \(error)")
            }
        }
        let (title, message) = Self.headline(booking)
        let body =
            "<h1>\(HTMLPage.escape(title))</h1><p>\(HTMLPage.escape(message))</p>"
                + """
                <dl>
                <dt>Reference</dt><dd>\(HTMLPage.escape(booking.reference))</dd>
                <dt>Pickup</dt><dd>\(HTMLPage.escape(booking.pickup.description))</dd>
                <dt>Destination</dt><dd>\(HTMLPage.escape(booking.destination.description))</dd>
                <dt>When</dt><dd>\(HTMLPage.escape(ZurichTime.describe(booking.pickupAt)))</dd>
                <dt>Vehicle</dt><dd>\(HTMLPage.escape(booking.vehicleClass.rawValue))</dd>
                <dt>Price</dt><dd>\(HTMLPage.escape(Money.formatCHF(booking.priceCents)))</dd>
                </dl>
                """
        return HTMLPage.response(title: title, body: body)
    }

    static func headline(_ booking: Booking) -> (String, String) {
        switch booking.state {
        case .awaitingPayment:
            if booking.paymentStatus == .failed || booking.paymentStatus == .canceled {
                return (
                    "Payment failed", "The payment did not go through. Book again from the app to try another payment."
                )
            }
            return (
                "Waiting for payment",
                "We have not received the payment yet. This page shows the result once it arrives."
            )
        case .expired:
            return ("Booking expired", "The quote expired before the payment arrived. Book again from the app.")
        case .refunded:
            return ("Payment refunded", "The payment arrived too late to keep the ride, so we refunded it in full.")
        case .cancelled:
            return ("Booking cancelled", "This ride is cancelled.")
        default:
            return (
                "Booking confirmed", "Your ride \(booking.reference) is confirmed. A confirmation is on its way to you."
            )
        }
    }
}
