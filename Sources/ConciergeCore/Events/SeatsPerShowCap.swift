/// Events' seats-per-account-per-show cap, checked once more in the checkout's transaction under
/// the account's lock (as the platform's unpaid cap is), so that a burst of checkouts over several
/// instances never holds more of one show than the cap (security review finding 5).
public struct SeatsPerShowCap: Sendable {
    public let accountID: String
    public let showID: String
    public let max: Int
    /// Until the seats of an unpaid order are released, at most.
    public let retryAfterSeconds: Int

    public init(accountID: String, showID: String, max: Int, retryAfterSeconds: Int) {
        self.accountID = accountID
        self.showID = showID
        self.max = max
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The same lock as the account's unpaid-order cap: one account's checkouts, one at a time.
    public var lockKey: String { OpenOrderCap.lockKey(vertical: EventsService.vertical, accountID: accountID) }

    public func refusal(having seats: Int) -> ConciergeError {
        ConciergeError(
            .tooManyRequests(retryAfterSeconds: Swift.max(retryAfterSeconds, 1)), code: "too_many_seats_for_show",
            message:
                "You already have \(seats) seats for this show, and one person may have \(max). Choose fewer seats, or pay for or cancel your unpaid seats first."
        )
    }
}
