import ConciergeCore
import NIOConcurrencyHelpers

/// The payment owners the verticals register as they mount. The dispatcher exists before any
/// vertical does (their routes need it), so it forwards to the owner registered under the
/// payment's vertical when a payment arrives — by then every module has mounted.
final class PaymentOwnerRegistry: Sendable {
    private let owners = NIOLockedValueBox<[String: any PaymentOwner]>([:])

    func register(_ owner: any PaymentOwner) {
        owners.withLockedValue { $0[owner.vertical] = owner }
    }

    func owner(_ vertical: String) -> (any PaymentOwner)? {
        owners.withLockedValue { $0[vertical] }
    }

    /// One forwarding owner per vertical name, for `PaymentDispatcher(ledger:owners:)`.
    func forwarders(for verticals: [String]) -> [any PaymentOwner] {
        verticals.map { ForwardingPaymentOwner(vertical: $0, registry: self) }
    }
}

private struct ForwardingPaymentOwner: PaymentOwner {
    let vertical: String
    let registry: PaymentOwnerRegistry

    func applyPayment(_ snapshot: PaymentSnapshot, record: PaymentRecord) async throws {
        guard let owner = registry.owner(vertical) else {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: 60), code: "payment_owner_unavailable",
                message: "The \(vertical) service is starting; the payment will be applied on the next delivery.")
        }
        try await owner.applyPayment(snapshot, record: record)
    }
}
