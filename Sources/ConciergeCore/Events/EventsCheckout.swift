import Foundation

/// What a buyer asks for: named seats, or the best `quantity` seats (optionally in one section).
public struct SeatSelection: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case seats([String])
        case best(quantity: Int, section: String?)
    }

    public let showID: String
    public let kind: Kind

    public init(showID: String, kind: Kind) {
        self.showID = showID
        self.kind = kind
    }
}

/// A checkout opened: the seats are held until `expiresAt`; the buyer pays at `checkoutURL`.
public struct OpenedCheckout: Sendable, Equatable {
    public let booking: EventBooking
    public let checkoutURL: String
}
