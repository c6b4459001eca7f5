import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird

/// The box office's orders, with the admin token: `GET /events/api/admin/orders` (newest first;
/// `showId`, `status`, `limit` 1–100, `cursor` from `X-Next-Cursor`) and
/// `GET /events/api/admin/orders/{id}` with the buyer, the payment and the door scans.
struct EventsOrdersController {
    let events: EventsService

    struct Order: Encodable {
        let id: String
        let reference: String
        let status: String
        let showId: String
        let showTitle: String
        let showDate: String
        let showTime: String
        let email: String
        let accountId: String
        let seats: [Events.BookedSeat]
        let totalAmount: Int
        let totalAmountCents: Int
        let currency: String
        let createdAt: String
        let expiresAt: String
        let paymentProvider: String
        let paymentId: String
        /// Detail only.
        let checkIns: [CheckIn]?

        init(_ view: EventsService.BookingView, checkIns: [SeatCheckIn]? = nil) {
            let wire = EventsWire.booking(view)
            let booking = view.booking
            id = booking.orderID
            reference = booking.reference.code
            status = booking.state.rawValue
            showId = booking.showID
            showTitle = wire.showTitle
            showDate = wire.showDate
            showTime = wire.showTime
            email = booking.contactEmail
            accountId = booking.accountID
            seats = wire.seats
            totalAmount = wire.totalAmount
            totalAmountCents = booking.amountCents
            currency = booking.currency
            createdAt = WireDate.string(from: booking.createdAt)
            expiresAt = WireDate.string(from: booking.expiresAt)
            paymentProvider = booking.paymentProvider
            paymentId = booking.paymentID
            self.checkIns = checkIns?.map {
                CheckIn(seatId: $0.seatID, gate: $0.gate, at: WireDate.string(from: $0.at))
            }
        }
    }

    struct CheckIn: Encodable {
        let seatId: String
        let gate: String
        let at: String
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("orders", use: list)
        group.get("orders/:id", use: detail)
    }

    @Sendable func list(request: Request, context: AppRequestContext) async throws -> Response {
        let query = try Self.query(request)
        let views = try await events.orders(
            showID: query.showID, state: query.state, limit: query.limit, offset: query.offset)
        var response = try jsonResponse(views.map { Order($0) })
        if views.count == query.limit { response.headers[.nextCursor] = String(query.offset + query.limit) }
        return response
    }

    @Sendable func detail(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard id.count <= 100 else {
            throw ConciergeError(.notFound, code: "order_not_found", message: "There is no such order.")
        }
        let order = try await events.order(id: id)
        return try jsonResponse(Order(order.view, checkIns: order.checkIns))
    }

    struct ListQuery {
        var showID: String?
        var state: EventBooking.State?
        var limit = 50
        var offset = 0
    }

    static func query(_ request: Request) throws -> ListQuery {
        let parameters = request.uri.queryParameters
        func raw(_ name: String) -> String? { parameters[name[...]].map(String.init) }
        func invalid(_ message: String) -> ConciergeError {
            ConciergeError(.invalidInput, code: "invalid_request", message: message)
        }
        var query = ListQuery()
        if let show = raw("showId") {
            guard !show.isEmpty, show.count <= 100 else { throw invalid("showId names a show.") }
            query.showID = show
        }
        if let status = raw("status") {
            guard let state = EventBooking.State(rawValue: status) else {
                let names = EventBooking.State.allCases.map(\.rawValue).joined(separator: ", ")
                throw invalid("status is one of \(names).")
            }
            query.state = state
        }
        if let limit = raw("limit") {
            guard let value = Int(limit), (1...100).contains(value) else {
                throw invalid("limit is a whole number from 1 to 100.")
            }
            query.limit = value
        }
        if let cursor = raw("cursor") {
            guard cursor.count <= 7, cursor.allSatisfy({ $0.isASCII && $0.isNumber }), let offset = Int(cursor) else {
                throw ConciergeError(
                    .invalidInput, code: "invalid_cursor",
                    message: "This cursor is not one the list gave out (X-Next-Cursor). Start from the first page.")
            }
            query.offset = offset
        }
        return query
    }
}
