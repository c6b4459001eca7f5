import ConciergeCore
import Foundation
import Hummingbird

/// The box office, with the admin token: a show's sales and check-in counts, and cancelling a
/// show with a full refund of every order.
struct EventsAdminController {
    let events: EventsService
    let adminToken: String?

    struct CountsResponse: Encodable {
        let showId: String
        let seats: Int
        let sold: Int
        let reserved: Int
        let house: Int
        let available: Int
        let confirmedOrders: Int
        let revenueCents: Int
        let currency: String
        let checkedIn: Int
    }

    struct CancellationResponse: Encodable {
        let success = true
        let showId: String
        let refundedOrders: Int
        let refundedCents: Int
        let releasedOrders: Int
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        let admin = group.group("api/admin")
            .add(
                middleware: ScannerTokenMiddleware(
                    token: adminToken, code: "admin_unauthorized",
                    message: "This admin endpoint needs the admin token (CONCIERGE_ADMIN_TOKEN) as a bearer token.")
            )
        admin.get("shows/:id/counts", use: counts)
        admin.post("shows/:id/cancel", use: cancel)
        EventsScannerTokensController(events: events).addRoutes(to: admin)
        EventsOrdersController(events: events).addRoutes(to: admin)
        EventsVenuesController(events: events).addRoutes(to: admin)
        EventsAdminShowsController(events: events).addRoutes(to: admin)
        EventsHouseSeatsController(events: events).addRoutes(to: admin)
    }

    @Sendable func counts(request: Request, context: AppRequestContext) async throws -> Response {
        let counts = try await events.counts(showID: try EventsShowsController.showID(context))
        return try jsonResponse(
            CountsResponse(
                showId: counts.showID, seats: counts.seats, sold: counts.sold, reserved: counts.reserved,
                house: counts.house, available: counts.seats - counts.sold - counts.reserved - counts.house,
                confirmedOrders: counts.confirmedOrders,
                revenueCents: counts.revenueCents, currency: counts.currency, checkedIn: counts.checkedIn))
    }

    @Sendable func cancel(request: Request, context: AppRequestContext) async throws -> Response {
        let result = try await events.cancelShow(id: try EventsShowsController.showID(context))
        return try jsonResponse(
            CancellationResponse(
                showId: result.showID, refundedOrders: result.refundedOrders, refundedCents: result.refundedCents,
                releasedOrders: result.releasedOrders))
    }
}
