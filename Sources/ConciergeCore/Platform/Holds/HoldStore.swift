public import Foundation

/// Where holds and inventory live. Every method is one database transaction whose conditional
/// writes keep the invariant — never more held plus sold than a unit's capacity — however many
/// instances race.
public protocol HoldStore: Sendable {
    /// Creates the units or changes their capacity. Throws `invalidInput` when a new capacity
    /// is below what is already held and sold.
    func setCapacity(_ capacities: [String: Int]) async throws
    func units(keys: [String]) async throws -> [InventoryUnit]

    /// Takes every item of `hold` from the free stock, or nothing: throws `hold_unavailable`
    /// naming the units that are short.
    func place(_ hold: NewHold) async throws -> Hold
    func hold(id: String) async throws -> Hold?

    /// Moves `expiresAt` to `until` if the hold is still held and not lapsed at `now`; nil otherwise.
    func extend(id: String, until: Date, now: Date) async throws -> Hold?
    /// Gives a held hold's units back (lapsed or not: its units are still counted as held until
    /// the expiry job runs). Nil when it was not held.
    func release(id: String, now: Date) async throws -> Hold?
    /// Moves a held, unlapsed hold's units from held to sold. Nil otherwise.
    func sell(id: String, orderID: String, now: Date) async throws -> Hold?
    /// For a payment that arrived late: sells a hold that lapsed or was released by taking its
    /// units again, all or nothing (throws `hold_unavailable` when someone else has them), or a
    /// hold the expiry job has not reached yet. Nil when it was sold already.
    func sellAfterLapse(id: String, orderID: String, now: Date) async throws -> Hold?
    /// Puts a sold hold's units back on sale (a cancellation, a refund, an operator's release),
    /// once: nil when it is not sold to `orderID`.
    func returnSold(id: String, orderID: String, now: Date) async throws -> Hold?
    /// Marks up to `limit` holds lapsed at `now` expired and gives their units back, each
    /// exactly once however many workers run it. Returns the holds it expired.
    func expireLapsedHolds(now: Date, limit: Int) async throws -> [Hold]
}
