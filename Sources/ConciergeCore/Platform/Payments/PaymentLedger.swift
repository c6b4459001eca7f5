/// The platform's payments and refunds, read by webhooks, return pages and the sandbox checkout.
/// Payments are written by their owner, in the transaction that creates the order.
public protocol PaymentLedger: Sendable {
    /// The payment a provider reports on, or nil when it is none of ours.
    func payment(provider: String, providerPaymentID: String) async throws -> PaymentRecord?
    /// The payments of an order, oldest first.
    func payments(orderID: String) async throws -> [PaymentRecord]
    /// Records the provider's status; the owner's own state is its own business.
    func recordStatus(paymentID: String, status: PaymentStatus) async throws
    /// Records a refund the provider made and adds it to the payment's refunded amount, once
    /// per provider refund id. False when it was recorded before.
    @discardableResult
    func recordRefund(_ refund: RefundRecord) async throws -> Bool
    func refunds(paymentID: String) async throws -> [RefundRecord]
}
