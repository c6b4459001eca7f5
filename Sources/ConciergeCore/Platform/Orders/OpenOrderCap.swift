public import Foundation

/// The unpaid-order cap, checked once more inside the transaction that writes the order, under
/// a lock on the account: the check before the payment is opened spares the provider a flood,
/// and this one makes the cap exact — a burst of checkouts spread over several instances opens
/// no more unpaid orders than the cap.
public struct OpenOrderCap: Sendable {
    public let vertical: String
    public let accountID: String
    public let max: Int
    /// The 429 for an account that has `open` unpaid orders, the first lapsing at the date.
    public let refusal: @Sendable (_ open: Int, _ firstExpiry: Date?) -> ConciergeError

    public init(
        vertical: String, accountID: String, max: Int,
        refusal: @escaping @Sendable (_ open: Int, _ firstExpiry: Date?) -> ConciergeError
    ) {
        self.vertical = vertical
        self.accountID = accountID
        self.max = max
        self.refusal = refusal
    }

    /// The lock that serialises one account's order writes of one vertical, on every instance.
    public var lockKey: String { Self.lockKey(vertical: vertical, accountID: accountID) }

    /// The lock of one account's order writes of one vertical; a vertical's own caps take it too.
    public static func lockKey(vertical: String, accountID: String) -> String { "orders:open:\(vertical):\(accountID)" }
}

extension OrderLimitChecker {
    /// The cap to enforce in the order's transaction, or nil when the unpaid cap is off.
    public func openCap(accountID: String, scope: OrderLimitScope) -> OpenOrderCap? {
        guard limits.maxOpenUnpaid > 0 else { return nil }
        let now = clock.now
        return OpenOrderCap(vertical: scope.vertical, accountID: accountID, max: limits.maxOpenUnpaid) {
            open, firstExpiry in
            let frees = firstExpiry ?? now.addingTimeInterval(scope.openLifetime)
            return ConciergeError(
                .tooManyRequests(retryAfterSeconds: Self.seconds(from: now, to: frees)),
                code: scope.wording.unpaidCode,
                message: scope.wording.unpaid(open, Self.clockTime(frees, in: scope.timeZone)))
        }
    }
}
