public import Foundation

/// An order as a list shows it (the operator's orders page): without its lines and events.
public struct OrderSummary: Sendable, Equatable {
    public let id: String
    public let vertical: String
    public let reference: String
    public let amountCents: Int
    public let currency: String
    public let state: String
    public let createdAt: Date

    public init(
        id: String, vertical: String, reference: String, amountCents: Int, currency: String, state: String,
        createdAt: Date
    ) {
        self.id = id
        self.vertical = vertical
        self.reference = reference
        self.amountCents = amountCents
        self.currency = currency
        self.state = state
        self.createdAt = createdAt
    }
}
