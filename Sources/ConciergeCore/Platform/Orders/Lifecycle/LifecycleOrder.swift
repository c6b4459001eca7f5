public import Foundation

/// An order as the lifecycle sees it: the platform's columns of `orders` and its payment, the
/// same for every vertical.
public struct LifecycleOrder: Sendable, Equatable {
    public let id: String
    public let vertical: String
    public let accountID: String?
    public let reference: String
    public let amountCents: Int
    public let currency: String
    public let status: OrderStatus
    /// The vertical's own name for the state (`pending`, `driver_assigned`, …).
    public let verticalState: String
    /// The platform hold that keeps the order's inventory, when it has one (a ride has none).
    public let holdID: String?
    /// When the order lapses unpaid.
    public let expiresAt: Date?
    /// When the platform first took a payment for it as paid; set once.
    public let paidAt: Date?
    /// The order's payment in the ledger (the latest one), when it has one.
    public let payment: PaymentRecord?

    public init(
        id: String, vertical: String, accountID: String?, reference: String, amountCents: Int, currency: String,
        status: OrderStatus, verticalState: String, holdID: String?, expiresAt: Date?, paidAt: Date?,
        payment: PaymentRecord?
    ) {
        self.id = id
        self.vertical = vertical
        self.accountID = accountID
        self.reference = reference
        self.amountCents = amountCents
        self.currency = currency
        self.status = status
        self.verticalState = verticalState
        self.holdID = holdID
        self.expiresAt = expiresAt
        self.paidAt = paidAt
        self.payment = payment
    }
}

extension LifecycleOrder {
    /// The same order with the vertical's state name after a move.
    public func moved(toState state: String) -> LifecycleOrder {
        LifecycleOrder(
            id: id, vertical: vertical, accountID: accountID, reference: reference, amountCents: amountCents,
            currency: currency, status: status, verticalState: state, holdID: holdID, expiresAt: expiresAt,
            paidAt: paidAt, payment: payment)
    }
}
