public import Foundation

/// What a vertical asks to hold: every item or none of them.
public struct HoldRequest: Sendable, Equatable {
    public let ownerID: String
    public let items: [HoldItem]
    /// How long the hold lasts; nil takes the policy's default.
    public let duration: TimeInterval?

    public init(ownerID: String, items: [HoldItem], duration: TimeInterval? = nil) {
        self.ownerID = ownerID
        self.items = items
        self.duration = duration
    }
}

/// A hold as the store writes it: the service has chosen its id and times.
public struct NewHold: Sendable, Equatable {
    public let id: String
    public let ownerID: String
    /// One item per unit key, sorted by key: transactions take row locks in one order, so two
    /// overlapping holds wait for each other instead of deadlocking.
    public let items: [HoldItem]
    public let createdAt: Date
    public let expiresAt: Date

    public init(id: String, ownerID: String, items: [HoldItem], createdAt: Date, expiresAt: Date) {
        self.id = id
        self.ownerID = ownerID
        self.items = items
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
