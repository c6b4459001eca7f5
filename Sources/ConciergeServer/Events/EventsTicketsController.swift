import ConciergeCore
import Foundation
import Hummingbird
import NIOCore

/// A seat's ticket as a QR image, `GET /events/api/user/bookings/{id}/tickets/{seatId}.svg` or
/// `.png`: the seat's signed payload, for the buyer who owns the booking only (anyone else
/// hears 404, as for an unknown booking).
struct EventsTicketsController {
    let events: EventsService
    let accounts: EventsAccounts

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.group()
            .add(middleware: PlatformSessionMiddleware(sessions: accounts.sessions))
            .group(context: EventsSignedInContext.self)
            .get("api/user/bookings/:id/tickets/{seatId}.svg", use: svg)
            .get("api/user/bookings/:id/tickets/{seatId}.png", use: png)
    }

    @Sendable func svg(request: Request, context: EventsSignedInContext) async throws -> Response {
        let ticket = try await ticket(context)
        return image(ByteBuffer(string: try ticket.svg()), "image/svg+xml; charset=utf-8", "\(ticket.seatID).svg")
    }

    @Sendable func png(request: Request, context: EventsSignedInContext) async throws -> Response {
        let ticket = try await ticket(context)
        return image(ByteBuffer(bytes: try ticket.png()), "image/png", "\(ticket.seatID).png")
    }

    private func ticket(_ context: EventsSignedInContext) async throws -> SeatTicket {
        let id = try context.parameters.require("id")
        let seat = try context.parameters.require("seatId")
        guard id.count <= 100, seat.count <= 100 else {
            throw ConciergeError(
                .notFound, code: "ticket_not_found", message: "This booking has no ticket for that seat.")
        }
        return try await events.seatTicket(orderID: id, seatID: seat, accountID: context.accountID)
    }

    /// A ticket is a secret: kept out of shared caches.
    private func image(_ body: ByteBuffer, _ contentType: String, _ filename: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: contentType, .cacheControl: "private, no-store",
                .contentDisposition: "inline; filename=\"ticket-\(filename)\"",
            ],
            body: .init(byteBuffer: body))
    }
}
