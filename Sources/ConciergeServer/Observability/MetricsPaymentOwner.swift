import ConciergeCore

/// Counts payment outcomes where the dispatcher hands a provider's word to the payment's owner:
/// an outcome counts once, when it is news to the ledger (a repeated webhook, or the return
/// page after the webhook, finds the ledger already moved). The sandbox checkout moves its
/// ledger row itself before dispatching, so it counts its outcomes itself; refunds are counted
/// where they are made (`MetricsPaymentProvider`).
struct MetricsPaymentOwner: PaymentOwner {
    let owner: any PaymentOwner
    let recorder: MetricsRecorder

    var vertical: String { owner.vertical }

    func applyPayment(_ snapshot: PaymentSnapshot, record: PaymentRecord) async throws {
        try await owner.applyPayment(snapshot, record: record)
        if snapshot.status != record.status, Self.outcomes.contains(snapshot.status) {
            recorder.paymentReached(provider: record.provider, outcome: snapshot.status.rawValue)
        }
    }

    /// The states a payment ends in; open, pending and authorized are on the way.
    static let outcomes: Set<PaymentStatus> = [.paid, .failed, .canceled, .expired]
}
