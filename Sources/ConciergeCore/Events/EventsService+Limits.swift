import Foundation

extension EventsService {
    /// How the platform counts events orders: open while their seats are held for the payment.
    /// Times are said in the venue's zone.
    func limitScope(timeZone: TimeZone) -> OrderLimitScope {
        OrderLimitScope(
            vertical: Self.vertical, openStates: [EventBooking.State.pending.rawValue],
            openLifetime: Double(policy.holdMinutes * 60), timeZone: timeZone)
    }

    /// The platform's per-account caps before seats are held and a payment opened: unpaid orders,
    /// orders per hour, and seats per account per show (held and sold, security review finding 5:
    /// one account held a whole show).
    func checkLimits(accountID: String, summary: ShowSummary, adding seats: Int) async throws {
        let now = clock.now
        let zone = TimeZone(identifier: summary.venue.timeZone) ?? .gmt
        var caps: [OrderCap] = []
        if policy.maximumSeatsPerShow > 0 {
            let mine = try await store.bookings(accountID: accountID).filter {
                $0.showID == summary.show.id
                    && ($0.state == .confirmed || ($0.state == .pending && $0.expiresAt > now))
            }
            let count = mine.reduce(0) { $0 + $1.tickets.count }
            let released = mine.filter { $0.state == .pending }.map(\.expiresAt).min()
            var message =
                "You already have \(count) seats for this show, and one person may have \(policy.maximumSeatsPerShow). "
            if let released {
                message +=
                    "Pay for or cancel your unpaid seats, or wait until they are released at \(OrderLimitChecker.clockTime(released, in: zone)); or choose fewer seats."
            } else {
                message += "Choose fewer seats, or cancel one of your bookings for this show first."
            }
            caps.append(
                OrderCap(
                    code: "too_many_seats_for_show", limit: policy.maximumSeatsPerShow, current: count, adding: seats,
                    retryAfterSeconds: released.map { OrderLimitChecker.seconds(from: now, to: $0) }
                        ?? policy.holdMinutes * 60,
                    message: message))
        }
        try await limits.check(accountID: accountID, scope: limitScope(timeZone: zone), caps: caps)
    }
}
