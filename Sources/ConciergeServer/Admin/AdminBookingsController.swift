import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird

/// The operations API: find bookings, read one with its event log, move a ride along.
struct AdminBookingsController {
    let bookings: BookingService
    let token: String

    func addRoutes(to router: Router<AppRequestContext>) {
        router.group("admin")
            .add(middleware: AdminTokenMiddleware(token: token))
            .get("bookings", use: list)
            .get("bookings/:reference", use: detail)
            .post("bookings/:reference/status", use: advance)
    }

    @Sendable func list(request: Request, context: AppRequestContext) async throws -> Response {
        let state = try request.optionalQuery("status").map { text in
            guard let state = BookingState(rawValue: text) else {
                throw ConciergeError(
                    .invalidInput, code: "invalid_request", message: "Unknown status '\(text.prefix(30))'.")
            }
            return state
        }
        func date(_ name: String) throws -> Date? {
            guard let text = request.optionalQuery(name) else { return nil }
            guard let date = WireDate.date(from: text) else {
                throw ConciergeError(
                    .invalidInput, code: "invalid_request", message: "'\(name)' must be an ISO 8601 time.")
            }
            return date
        }
        let limit = try request.optionalInteger("limit", in: 1...500) ?? 100
        let offset = try request.optionalInteger("offset", in: 0...1_000_000) ?? 0
        let page = try await bookings.adminBookings(
            state: state, pickupFrom: try date("pickupFrom"), pickupTo: try date("pickupTo"), limit: limit + 1,
            offset: offset)
        return try jsonResponse(
            BookingListResponse(
                bookings: page.prefix(limit).map(BookingSummary.init),
                nextOffset: page.count > limit ? offset + limit : nil))
    }

    @Sendable func detail(request: Request, context: AppRequestContext) async throws -> Response {
        let booking = try await bookings.adminBooking(reference: try context.parameters.require("reference"))
        return try jsonResponse(try await Self.response(booking, bookings: bookings))
    }

    @Sendable func advance(request: Request, context: AppRequestContext) async throws -> Response {
        let update = try await request.decodeJSON(RideStatusUpdate.self, context: context)
        guard let target = BookingState(rawValue: update.status) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_request", message: "Unknown status '\(update.status.prefix(30))'.")
        }
        let driver = update.driver.map { Driver(name: $0.name, phone: $0.phone, vehicle: $0.vehicle, plate: $0.plate) }
        let moved = try await bookings.advance(
            reference: try context.parameters.require("reference"), to: target, driver: driver)
        return try jsonResponse(try await Self.response(moved, bookings: bookings))
    }

    static func response(_ booking: Booking, bookings: BookingService) async throws -> AdminBookingResponse {
        AdminBookingResponse(
            booking: BookingSummary(booking), customerId: booking.customerID,
            events: try await bookings.events(of: booking).map {
                BookingEventResponse(
                    at: WireDate.string(from: $0.at), type: $0.type, actor: $0.actor, detail: $0.detail)
            })
    }
}
