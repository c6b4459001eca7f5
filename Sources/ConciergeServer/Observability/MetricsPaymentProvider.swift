import ConciergeCore

/// The payment provider, counting the refunds Concierge makes through it (late payments,
/// cancellations, admin refunds): whichever vertical refunds, it refunds here.
struct MetricsPaymentProvider: PaymentProvider {
    let provider: any PaymentProvider
    let recorder: MetricsRecorder

    var name: String { provider.name }
    var opensPaymentsLocally: Bool { provider.opensPaymentsLocally }

    func createPayment(_ request: PaymentRequest) async throws -> CreatedPayment {
        try await provider.createPayment(request)
    }

    func fetchPayment(id: String) async throws -> PaymentSnapshot {
        try await provider.fetchPayment(id: id)
    }

    func cancelPayment(id: String) async throws {
        try await provider.cancelPayment(id: id)
    }

    func refundPayment(id: String, amountCents: Int, currency: String, reason: String, idempotencyKey: String)
        async throws -> String
    {
        let refund = try await provider.refundPayment(
            id: id, amountCents: amountCents, currency: currency, reason: reason, idempotencyKey: idempotencyKey)
        recorder.paymentReached(provider: provider.name, outcome: "refunded")
        return refund
    }
}
