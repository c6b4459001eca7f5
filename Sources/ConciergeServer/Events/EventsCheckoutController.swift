import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird

/// `/events/api/seat-checkout` (named seats or best available, verified email required),
/// `/events/api/checkout/success` (the return page's JSON), and the buyer's bookings.
struct EventsCheckoutController {
    let events: EventsService
    let accounts: EventsAccounts
    /// `Idempotency-Key`s of seat checkouts: a retry gets the first checkout, not a second one.
    let keys: IdempotentRequests

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("api/checkout/success", use: success)
        group.group()
            .add(middleware: PlatformSessionMiddleware(sessions: accounts.sessions))
            .group(context: EventsSignedInContext.self)
            .post("api/seat-checkout", use: checkout)
            .get("api/user/bookings", use: bookings)
            .post("api/user/bookings/:id/cancel", use: cancel)
    }

    @Sendable func checkout(request: Request, context: EventsSignedInContext) async throws -> Response {
        let body = try await request.decodeJSON(Events.SeatCheckoutRequest.self, context: context)
        let selection = try Self.selection(body)
        return try await keys.run(key: request.headers[.idempotencyKey], accountID: context.accountID, body: body) {
            try await checkout(selection, context: context)
        }
    }

    private func checkout(_ selection: SeatSelection, context: EventsSignedInContext) async throws -> Response {
        let account = try await accounts.accounts.account(id: context.accountID)
        guard let email = account.verifiedEmails.first else {
            throw ConciergeError(
                .forbidden, code: "email_not_verified",
                message: "Please confirm your email address first: open the link we sent you, or ask for a new one.")
        }
        do {
            let opened = try await events.checkout(
                selection, accountID: context.accountID, email: email, clientIP: context.clientIP)
            let booking = opened.booking
            return try jsonResponse(
                Events.SeatCheckoutResponse(
                    url: opened.checkoutURL, sessionId: booking.sessionID, orderId: booking.orderID,
                    expiresAt: WireDate.string(from: booking.expiresAt), seatIds: booking.tickets.map(\.seatID),
                    totalAmount: EventsMoney.units(booking.amountCents), totalAmountCents: booking.amountCents,
                    currency: booking.currency))
        } catch let error as SeatsUnavailableError {
            throw ConciergeError.seatsUnavailable(
                error.seatIDs,
                message: error.seatIDs.isEmpty
                    ? "There are not enough adjacent seats left for this request. Try fewer seats or another section."
                    : "Some of these seats were just taken: \(error.seatIDs.joined(separator: ", ")). Nothing was held; choose others."
            )
        }
    }

    static func selection(_ body: Events.SeatCheckoutRequest) throws -> SeatSelection {
        guard !body.showId.isEmpty, body.showId.count <= 100 else {
            throw ConciergeError(.invalidInput, code: "invalid_request", message: "showId names a show from the list.")
        }
        switch (body.specificSeatIds, body.quantity) {
        case (let ids?, nil):
            guard ids.allSatisfy({ !$0.isEmpty && $0.count <= 100 }) else {
                throw ConciergeError(.invalidInput, code: "invalid_seats", message: "Seat ids come from the seat list.")
            }
            return SeatSelection(showID: body.showId, kind: .seats(ids))
        case (nil, let quantity?):
            guard body.section.map({ $0.count <= 100 }) ?? true else {
                throw ConciergeError(
                    .invalidInput, code: "invalid_seats", message: "section names a section of the map.")
            }
            return SeatSelection(showID: body.showId, kind: .best(quantity: quantity, section: body.section))
        default:
            throw ConciergeError(
                .invalidInput, code: "invalid_request",
                message: "Send either specificSeatIds (the seats you chose) or quantity (the best seats), not both.")
        }
    }

    /// The session id travels in the provider's return URL (its dashboard, browser history, proxy
    /// logs), so it is no credential for the tickets: the answer carries `qrCode` and the seats
    /// only with the owner's bearer token; without it, the booking's status and totals
    /// (review 2026-11-27, finding 12).
    @Sendable func success(request: Request, context: AppRequestContext) async throws -> Response {
        let sessionID = try request.requiredQuery("session_id", maxLength: 100)
        let booking = try await events.checkoutResult(sessionID: sessionID)
        guard booking.state == .confirmed else {
            return try jsonResponse(
                Events.CheckoutSuccessResponse(
                    status: Events.UserBooking.Status(rawValue: booking.state.rawValue) ?? .pending, booking: nil))
        }
        let view = EventsWire.booking(try await events.view(booking))
        let isOwner = await isOwner(of: booking, request: request)
        return try jsonResponse(
            Events.CheckoutSuccessResponse(status: .confirmed, booking: isOwner ? view : Self.withoutTickets(view)))
    }

    /// Whether the request carries a live session of the booking's account; a missing or wrong
    /// token is no error here, only less of an answer.
    private func isOwner(of booking: EventBooking, request: Request) async -> Bool {
        guard let token = SessionMiddleware.bearerToken(request.headers[.authorization]),
            let session = try? await accounts.sessions.authenticate(token: token)
        else { return false }
        return session.accountID == booking.accountID
    }

    /// The booking without what admits anyone at the door: no scan payload (`qrCode` absent, as
    /// the seed's `qrCode?` allows) and no seats (the seed's `seats` stays, empty).
    static func withoutTickets(_ booking: Events.UserBooking) -> Events.UserBooking {
        Events.UserBooking(
            id: booking.id, showId: booking.showId, showTitle: booking.showTitle, showDate: booking.showDate,
            showTime: booking.showTime, venue: booking.venue, seats: [], totalAmount: booking.totalAmount,
            bookingDate: booking.bookingDate, status: booking.status, qrCode: nil, reference: booking.reference,
            totalAmountCents: booking.totalAmountCents, currency: booking.currency)
    }

    @Sendable func bookings(request: Request, context: EventsSignedInContext) async throws -> Response {
        try jsonResponse(try await events.bookings(accountID: context.accountID).map(EventsWire.booking))
    }

    @Sendable func cancel(request: Request, context: EventsSignedInContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard id.count <= 100 else {
            throw ConciergeError(
                .notFound, code: "booking_not_found", message: "There is no such booking in your account.")
        }
        let booking = try await events.cancel(orderID: id, accountID: context.accountID)
        let view = EventsWire.booking(try await events.view(booking))
        return try jsonResponse(Events.CheckoutSuccessResponse(status: view.status, booking: view))
    }
}
