import Foundation

/// Sales and door figures of a show, for the box office.
public struct ShowCounts: Sendable, Equatable {
    public let showID: String
    public let seats: Int
    public let sold: Int
    public let reserved: Int
    /// Blocked for house use.
    public let house: Int
    public let confirmedOrders: Int
    public let revenueCents: Int
    public let currency: String
    public let checkedIn: Int
}

/// What cancelling a show did.
public struct ShowCancellation: Sendable, Equatable {
    public let showID: String
    public let refundedOrders: Int
    public let refundedCents: Int
    public let releasedOrders: Int
}

extension EventsService {
    public func counts(showID: String) async throws -> ShowCounts {
        let summary = try await show(id: showID)
        let taken = try await store.takenSeats(showID: showID)
        let confirmed = try await store.bookings(showID: showID).filter { $0.state == .confirmed }
        return ShowCounts(
            showID: showID, seats: summary.venue.seats.count, sold: taken.values.filter { $0 == .sold }.count,
            reserved: taken.values.filter { $0 == .reserved }.count, house: taken.values.filter { $0 == .house }.count,
            confirmedOrders: confirmed.count,
            revenueCents: confirmed.reduce(0) { $0 + $1.amountCents }, currency: summary.show.currency,
            checkedIn: try await store.checkedInSeats(showID: showID))
    }

    /// Takes the show off sale and refunds every paid order in full (each buyer gets an email);
    /// unpaid orders are cancelled and their payments stopped. Safe to repeat: each order moves once.
    public func cancelShow(id: String) async throws -> ShowCancellation {
        _ = try await show(id: id)
        try await store.markCancelled(showID: id)
        var refunded = 0
        var refundedCents = 0
        var released = 0
        for booking in try await store.bookings(showID: id) {
            switch try await lifecycle.withdraw(
                orderID: booking.orderID, actor: "admin", why: "the show was cancelled", vertical: self)
            {
            case .refunded(let cents):
                refunded += 1
                refundedCents += cents
            case .released: released += 1
            case .unchanged: continue
            }
        }
        seatStates.forget(showID: id)
        announceSeatChange(showID: id)
        return ShowCancellation(
            showID: id, refundedOrders: refunded, refundedCents: refundedCents, releasedOrders: released)
    }
}
