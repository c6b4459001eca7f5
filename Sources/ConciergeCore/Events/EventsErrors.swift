/// The events vertical's errors, worded for the person buying tickets.
extension ConciergeError {
    static func showNotFound(_ id: String) -> ConciergeError {
        ConciergeError(
            .notFound, code: "show_not_found", message: "There is no show \(id.prefix(80)). Pick one from the list.")
    }

    static func showNotOnSale(_ why: String) -> ConciergeError {
        ConciergeError(.conflict, code: "show_not_on_sale", message: "Tickets for this show are not on sale: \(why).")
    }

    static func invalidSeatSelection(_ message: String) -> ConciergeError {
        ConciergeError(.invalidInput, code: "invalid_seats", message: message)
    }

    /// 409 `seats_unavailable` with the seats that are gone as `unavailableSeatIds` (the events
    /// contract's extra field).
    public static func seatsUnavailable(_ seatIDs: [String], message: String) -> ConciergeError {
        ConciergeError(
            .conflict, code: "seats_unavailable", message: message, details: ["unavailableSeatIds": .texts(seatIDs)])
    }

    static let eventsBookingNotFound = ConciergeError(
        .notFound, code: "booking_not_found", message: "There is no such booking in your account.")

    static let checkoutNotFound = ConciergeError(
        .notFound, code: "checkout_not_found",
        message: "There is no checkout with this session_id. Open the link from your checkout again.")
}

/// Some of the named seats are held or sold already; nothing was held.
public struct SeatsUnavailableError: Error, Sendable, Equatable {
    public let seatIDs: [String]

    public init(seatIDs: [String]) {
        self.seatIDs = seatIDs
    }
}

/// Buying needs a verified email; the caller answers 403.
public struct EmailNotVerifiedError: Error, Sendable, Equatable {
    public init() {}
}
