/// Where an order stands in the platform's one lifecycle, whatever its vertical calls the state:
/// held → awaiting payment → confirmed → cancelled | expired | refunded. A vertical keeps its own
/// names (events' `pending`, stays' `pending_payment`) and its own later states (a ride's
/// `driver_assigned` is still `confirmed` here); the money rules read this one.
public enum OrderStatus: String, Sendable, CaseIterable, Codable {
    /// Inventory is held; no payment has been opened yet (an itinerary before checkout).
    case held
    /// Inventory is held and a payment is open.
    case awaitingPayment = "awaiting_payment"
    /// Paid (or, for what is paid later, accepted): the inventory is sold.
    case confirmed
    /// Cancelled by the customer or an operator; what was paid less any fee is owed back.
    case cancelled
    /// Lapsed unpaid: the inventory went back on sale.
    case expired
    /// The whole payment was given back because the order could not be kept.
    case refunded

    /// Still waiting for its money: counts against the customer's unpaid-order limit.
    public var isOpen: Bool { self == .held || self == .awaitingPayment }

    /// The state name a vertical gives this status: its own word for an open order (`pending`,
    /// `pending_payment`), the platform's for the rest, which every vertical shares.
    public func stateName(open: String) -> String { isOpen ? open : rawValue }
}

extension OrderStatus {
    /// The status a vertical's state name stands for (the same mapping as the migration that
    /// introduced the status): its open states, the ends, and every later state of a confirmed
    /// order (a ride's `driver_assigned`, `completed`).
    public init(verticalState: String) {
        switch verticalState {
        case "pending", "pending_payment", "awaiting_payment": self = .awaitingPayment
        case "held": self = .held
        case "cancelled": self = .cancelled
        case "expired": self = .expired
        case "refunded": self = .refunded
        default: self = .confirmed
        }
    }
}
