public import Foundation

/// What a customer buys from any vertical: lines, a total in cents and a currency, and a public
/// reference. The vertical keeps its own details (a ride, seats, room-nights) in its own table,
/// keyed by the order's id.
public struct Order: Sendable, Equatable {
    public let id: String
    /// The vertical that owns the order ("rides", "events", …); payments dispatch to it.
    public let vertical: String
    /// Nil once the account is erased: the order stays for accounting, anonymised.
    public let accountID: String?
    public let reference: OrderReference
    public let amountCents: Int
    public let currency: String
    /// The owning vertical's state name (rides: its booking state).
    public var state: String
    public let lines: [OrderLine]
    public let createdAt: Date
    /// The hold that keeps the order's inventory until it is paid (nil for a ride).
    public let holdID: String?
    /// When the order lapses unpaid.
    public let expiresAt: Date?

    public init(
        id: String, vertical: String, accountID: String?, reference: OrderReference, amountCents: Int,
        currency: String, state: String, lines: [OrderLine], createdAt: Date, holdID: String? = nil,
        expiresAt: Date? = nil
    ) {
        self.holdID = holdID
        self.expiresAt = expiresAt
        self.id = id
        self.vertical = vertical
        self.accountID = accountID
        self.reference = reference
        self.amountCents = amountCents
        self.currency = currency
        self.state = state
        self.lines = lines
        self.createdAt = createdAt
    }
}

/// One thing on an order: a ride, a seat, a room-night.
public struct OrderLine: Sendable, Equatable {
    /// What kind of thing it is, e.g. "ride", "seat", "room-night".
    public let kind: String
    public let description: String
    public let quantity: Int
    public let unitAmountCents: Int

    public var amountCents: Int { quantity * unitAmountCents }

    public init(kind: String, description: String, quantity: Int, unitAmountCents: Int) {
        self.kind = kind
        self.description = description
        self.quantity = quantity
        self.unitAmountCents = unitAmountCents
    }
}

/// One entry in an order's log: who did what, when.
public struct OrderEvent: Sendable, Equatable {
    public let orderID: String
    public let at: Date
    public let type: String
    public let actor: String
    public let detail: String

    public init(orderID: String, at: Date, type: String, actor: String, detail: String) {
        self.orderID = orderID
        self.at = at
        self.type = type
        self.actor = actor
        self.detail = detail
    }
}
