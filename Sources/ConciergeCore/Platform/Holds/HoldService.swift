public import Foundation

/// Holds for every vertical: ids from the injected random source, times from the injected
/// clock, durations from the vertical's policy; the store keeps the invariant.
public struct HoldService: Sendable {
    private let store: any HoldStore
    private let policy: HoldPolicy
    private let clock: any TimeSource
    private let random: any RandomSource

    public init(store: any HoldStore, policy: HoldPolicy, clock: any TimeSource, random: any RandomSource) {
        self.store = store
        self.policy = policy
        self.clock = clock
        self.random = random
    }

    /// Holds every item or none; throws `hold_unavailable` naming the units that are gone.
    public func hold(_ request: HoldRequest) async throws -> Hold {
        let items = try Self.merged(request.items)
        let now = clock.now
        let duration = try policy.duration(request.duration)
        return try await store.place(
            NewHold(
                id: random.identifier(prefix: "hld"), ownerID: request.ownerID, items: items, createdAt: now,
                expiresAt: now.addingTimeInterval(duration)))
    }

    public func hold(id: String) async throws -> Hold {
        guard let hold = try await store.hold(id: id) else { throw ConciergeError.holdNotFound(id) }
        return hold
    }

    /// The hold if `ownerID` placed it; someone else's is `hold_not_found`, so ids cannot be probed.
    public func hold(id: String, ownedBy ownerID: String) async throws -> Hold {
        let hold = try await hold(id: id)
        guard hold.ownerID == ownerID else { throw ConciergeError.holdNotFound(id) }
        return hold
    }

    /// Makes the owner's hold last `duration` from now (at most the policy's maximum).
    public func extend(id: String, ownedBy ownerID: String, by duration: TimeInterval? = nil) async throws -> Hold {
        let now = clock.now
        let until = now.addingTimeInterval(try policy.duration(duration))
        _ = try await hold(id: id, ownedBy: ownerID)
        if let extended = try await store.extend(id: id, until: until, now: now) { return extended }
        throw ConciergeError.holdNotActive(try await hold(id: id))
    }

    /// Gives the owner's units back. Releasing a hold that is no longer held changes nothing.
    @discardableResult
    public func release(id: String, ownedBy ownerID: String) async throws -> Hold {
        // The owner never changes, so checking before the conditional write is not a race.
        let current = try await hold(id: id, ownedBy: ownerID)
        if let released = try await store.release(id: id, now: clock.now) { return released }
        return try await hold(id: id, ownedBy: current.ownerID)
    }

    /// Converts a held, unlapsed hold into sold units for `orderID`. Selling it again for the
    /// same order answers the sold hold (webhooks repeat).
    public func sell(id: String, orderID: String) async throws -> Hold {
        if let sold = try await store.sell(id: id, orderID: orderID, now: clock.now) { return sold }
        let current = try await hold(id: id)
        if current.state == .sold, current.orderID == orderID { return current }
        throw ConciergeError.holdNotActive(current)
    }

    /// The expiry job: lapses holds past their time, giving their units back once.
    @discardableResult
    public func expireLapsedHolds(limit: Int = 500) async throws -> [Hold] {
        try await store.expireLapsedHolds(now: clock.now, limit: limit)
    }

    /// One item per unit key (quantities of repeated keys added up), sorted by key.
    static func merged(_ items: [HoldItem]) throws -> [HoldItem] {
        guard !items.isEmpty else {
            throw ConciergeError(.invalidInput, code: "empty_hold", message: "Name at least one unit to hold.")
        }
        var quantities: [String: Int] = [:]
        for item in items {
            guard item.quantity > 0, !item.unitKey.isEmpty else {
                throw ConciergeError(
                    .invalidInput, code: "invalid_hold_item",
                    message:
                        "Each held unit needs a key and a quantity of at least 1 ('\(item.unitKey)': \(item.quantity))."
                )
            }
            quantities[item.unitKey, default: 0] += item.quantity
        }
        return quantities.keys.sorted().compactMap { key in quantities[key].map { HoldItem(unitKey: key, quantity: $0) }
        }
    }
}
