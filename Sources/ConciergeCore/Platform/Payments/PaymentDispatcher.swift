/// A vertical that owns payments: it turns what the provider says into its own state change.
public protocol PaymentOwner: Sendable {
    /// The vertical's name, as stored in `payments.owner_vertical`.
    var vertical: String { get }
    /// The one transition for this vertical's payments, behind webhooks, return pages, the
    /// sandbox checkout and expiry. Must be idempotent: deliveries repeat and race.
    func applyPayment(_ snapshot: PaymentSnapshot, record: PaymentRecord) async throws
}

/// Routes what a provider says about a payment to the vertical that owns it, through the
/// payments ledger: no controller needs to know which verticals exist.
public struct PaymentDispatcher: Sendable {
    private let ledger: any PaymentLedger
    private let owners: [String: any PaymentOwner]

    public init(ledger: any PaymentLedger, owners: [any PaymentOwner]) {
        self.ledger = ledger
        self.owners = Dictionary(owners.map { ($0.vertical, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether the ledger holds this payment: webhooks ask before they call the provider.
    public func isKnown(provider: String, providerPaymentID: String) async throws -> Bool {
        try await ledger.payment(provider: provider, providerPaymentID: providerPaymentID) != nil
    }

    /// Applies `snapshot` from `provider`. Returns the payment's record, or nil when the payment
    /// is not in the ledger (nobody learns from the answer which ids exist).
    @discardableResult
    public func dispatch(_ snapshot: PaymentSnapshot, provider: String) async throws -> PaymentRecord? {
        guard let record = try await ledger.payment(provider: provider, providerPaymentID: snapshot.id) else {
            return nil
        }
        guard let owner = owners[record.ownerVertical] else {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: 60), code: "payment_owner_unavailable",
                message:
                    "Payment \(record.id) belongs to '\(record.ownerVertical)', which this server does not run. Enable that vertical or route its webhooks to a server that runs it."
            )
        }
        try await owner.applyPayment(snapshot, record: record)
        return record
    }
}
