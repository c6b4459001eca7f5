/// A vertical's own customer cancellation, run on the operator's behalf from `/ops/orders`.
///
/// The operator cancels *for* the customer: the same rule decides (how late it may be, what is
/// refunded) and the same transition, refund and customer notice follow, so support never has a
/// second, looser path to money. Each selling vertical adapts its existing cancellation; none
/// repeats a rule.
public protocol OrderCanceller: Sendable {
    /// The vertical whose orders this cancels, as in `Order.vertical`.
    var vertical: String { get }

    /// Cancels the order `orderID` as its customer would, with the customer's refund.
    ///
    /// - Returns: a one-line summary for the operator, e.g. what was refunded.
    /// - Throws: the vertical's `ConciergeError`, e.g. 409 when it is too late to cancel, 404
    ///   when there is no such order or it has no customer any more (an erased account).
    func cancelForCustomer(orderID: String) async throws -> String

    /// Gives `cents` of the order's payment back without ending it, through the platform's
    /// lifecycle (never more than was paid); the customer is told in the vertical's words.
    ///
    /// - Returns: a one-line summary for the operator.
    func refundInPart(orderID: String, cents: Int, reason: String) async throws -> String
}

/// The summaries the cancellers return, so every vertical says the outcome the same way.
public enum OrderCancellationSummary {
    public static func refunded(_ cents: Int) -> String {
        cents > 0 ? "Cancelled; \(Money.formatCHF(cents)) refunded to the customer." : nothing
    }

    public static let nothing = "Cancelled; nothing was paid, so nothing is refunded."

    public static func refundedInPart(_ cents: Int) -> String {
        "\(Money.formatCHF(cents)) refunded to the customer; the order stands."
    }
}

extension ConciergeError {
    /// An order the operator cannot cancel for anyone: unknown, or its account was erased.
    public static let orderWithoutCustomer = ConciergeError(
        .notFound, code: "order_not_found", message: "There is no such order, or it has no customer any more.")
}
