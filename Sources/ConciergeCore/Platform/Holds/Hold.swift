public import Foundation

/// Inventory held for a while — seats, room-nights, ride quotes — for one account, until it is
/// sold, released, or its time runs out.
public struct Hold: Sendable, Equatable {
    public enum State: String, Sendable, CaseIterable {
        /// The units are taken from the free stock until `expiresAt`.
        case held
        /// Paid: the units moved from held to sold.
        case sold
        /// Given back by its owner before it lapsed.
        case released
        /// Lapsed: the expiry job gave its units back.
        case expired
    }

    public let id: String
    /// The account holding the units.
    public let ownerID: String
    public let state: State
    public let items: [HoldItem]
    public let createdAt: Date
    public let expiresAt: Date
    /// The order that bought the units, once sold.
    public let orderID: String?

    public init(
        id: String, ownerID: String, state: State, items: [HoldItem], createdAt: Date, expiresAt: Date,
        orderID: String?
    ) {
        self.id = id
        self.ownerID = ownerID
        self.state = state
        self.items = items
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.orderID = orderID
    }

    /// True while the hold keeps its units at `now`.
    public func isActive(at now: Date) -> Bool { state == .held && expiresAt > now }
}

/// So many of one inventory unit.
public struct HoldItem: Sendable, Equatable, Hashable {
    /// The unit's key, `vertical:resource:…`, e.g. `events:show_1:seat_A12` (capacity 1) or
    /// `stays:hotel_9:double:2026-12-01` (one room type on one night, capacity 12).
    public let unitKey: String
    public let quantity: Int

    public init(unitKey: String, quantity: Int = 1) {
        self.unitKey = unitKey
        self.quantity = quantity
    }
}

/// One unit of inventory and how much of it is taken.
public struct InventoryUnit: Sendable, Equatable {
    public let key: String
    public let capacity: Int
    public let held: Int
    public let sold: Int

    public init(key: String, capacity: Int, held: Int, sold: Int) {
        self.key = key
        self.capacity = capacity
        self.held = held
        self.sold = sold
    }

    public var free: Int { capacity - held - sold }
}
