import ConciergeCore
import ConciergeModels
import Hummingbird

/// `GET /stays/payment/return?session=…`: where the payment provider sends the guest back. The
/// return may come before the webhook, so it asks the provider where the payment stands and
/// hands that to the platform's dispatcher (the payment's owner is "stays"), then answers the
/// reservation in the wrapper. Public: the unguessable `session` opens it, like a return page.
struct StaysPaymentController {
    let stays: StaysService
    let payments: any PaymentProvider
    let dispatcher: PaymentDispatcher
    let wire: StaysWire

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("payment/return", use: paymentReturn)
    }

    @Sendable func paymentReturn(request: Request, context: AppRequestContext) async throws -> Response {
        let secret = try request.requiredQuery("session", maxLength: 100)
        var (record, guest) = try await stays.reservation(returnSecret: secret)
        if record.status == .pendingPayment, let prepayment = record.prepayment,
            prepayment.provider == payments.name,
            let snapshot = try? await payments.fetchPayment(id: prepayment.providerPaymentID)
        {
            try await dispatcher.dispatch(snapshot, provider: payments.name)
            (record, guest) = try await stays.reservation(returnSecret: secret)
        }
        let hotel = try await stays.hotel()
        let message =
            switch record.status {
            case .confirmed: "Paid. Your stay is confirmed: \(record.confirmationCode)."
            case .pendingPayment: "The payment has not arrived yet. This page shows it once it has."
            case .expired: "The hold lapsed before the payment arrived; the nights went back on sale."
            case .refunded: "The payment came too late for these nights and is refunded in full."
            case .cancelled: "This reservation is cancelled."
            }
        let available = try await stays.freeRooms(for: record, hotel: hotel)
        return try StaysEnvelope.response(
            wire.reservation(record, guest: guest, hotel: hotel, available: available), message: message)
    }
}
