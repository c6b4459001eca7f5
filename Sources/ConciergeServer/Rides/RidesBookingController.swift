import ConciergeCore
import ConciergeModels
import Foundation
import HTTPTypes
import Hummingbird

/// `/rides/app-book` and the customer's booking history. Signed-in customers only; another
/// customer's booking is a 404 on every route.
struct RidesBookingController {
    let bookings: BookingService
    let signIn: SignInService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.group()
            .add(middleware: SessionMiddleware(signIn: signIn))
            .group(context: SignedInContext.self)
            .post("app-book", use: book)
            .get("bookings", use: list)
            .get("bookings/:reference", use: detail)
            .post("bookings/:reference/cancel", use: cancel)
    }

    @Sendable func book(request: Request, context: SignedInContext) async throws -> Response {
        let body = try await request.decodeJSON(BookingRequest.self, context: context)
        let input = BookingRequestInput(
            pickupPlaceId: body.pickup.placeId, pickupDescription: body.pickup.description,
            destinationPlaceId: body.destination.placeId, destinationDescription: body.destination.description,
            dateTime: body.dateTime, passengers: body.passengers ?? 1, vehicleClass: body.vehicleClass,
            flightNumber: body.flightNumber)
        let json: String
        switch try await bookings.prepare(
            input, customer: context.customer, idempotencyKey: request.headers[.idempotencyKey],
            clientIP: context.clientIP)
        {
        case .replay(let answer):
            json = answer
        case .draft(let draft):
            // The answer is rendered here, and the store keeps these bytes for the key: a
            // repeat replays exactly what this request sent.
            json = try await bookings.commit(draft) { booking in
                String(decoding: try Wire.encoder.encode(BookingResponse(booking)), as: UTF8.self)
            }
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: json)))
    }

    @Sendable func list(request: Request, context: SignedInContext) async throws -> Response {
        let limit = try request.optionalInteger("limit", in: 1...100) ?? 20
        let offset = try request.optionalInteger("offset", in: 0...1_000_000) ?? 0
        // One more than asked tells whether there is a next page.
        let page = try await bookings.bookings(customerID: context.customer.id, limit: limit + 1, offset: offset)
        return try jsonResponse(
            BookingListResponse(
                bookings: page.prefix(limit).map(BookingSummary.init),
                nextOffset: page.count > limit ? offset + limit : nil))
    }

    @Sendable func detail(request: Request, context: SignedInContext) async throws -> Response {
        let reference = try context.parameters.require("reference")
        let booking = try await bookings.booking(reference: reference, customerID: context.customer.id)
        return try jsonResponse(BookingDetailResponse(booking: BookingSummary(booking)))
    }

    @Sendable func cancel(request: Request, context: SignedInContext) async throws -> Response {
        let reference = try context.parameters.require("reference")
        let booking = try await bookings.cancel(reference: reference, customer: context.customer)
        return try jsonResponse(BookingDetailResponse(booking: BookingSummary(booking)))
    }
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
}

extension BookingResponse {
    init(_ booking: Booking) {
        self.init(
            success: true, tripRequestId: Int(booking.reference.dropFirst(4)), quoteReference: booking.reference,
            priceCents: booking.priceCents, priceFormatted: Money.formatCHF(booking.priceCents),
            distanceKm: WireFigures.kilometres(meters: booking.distanceMeters),
            durationMinutes: WireFigures.minutes(seconds: booking.durationSeconds), checkoutUrl: booking.checkoutURL)
    }
}

extension BookingSummary {
    init(_ booking: Booking) {
        self.init(
            reference: booking.reference, status: booking.state.rawValue,
            pickup: BookingLocation(placeId: booking.pickup.placeId, description: booking.pickup.description),
            destination: BookingLocation(
                placeId: booking.destination.placeId, description: booking.destination.description),
            pickupDatetime: WireDate.string(from: booking.pickupAt), passengers: booking.passengers,
            vehicleClass: booking.vehicleClass.rawValue, flightNumber: booking.flightNumber,
            priceCents: booking.priceCents, priceFormatted: Money.formatCHF(booking.priceCents),
            distanceKm: WireFigures.kilometres(meters: booking.distanceMeters),
            durationMinutes: WireFigures.minutes(seconds: booking.durationSeconds),
            checkoutUrl: booking.state == .awaitingPayment ? booking.checkoutURL : nil,
            quoteExpiresAt: WireDate.string(from: booking.quoteExpiresAt),
            createdAt: WireDate.string(from: booking.createdAt),
            driver: booking.driver.map {
                DriverDetails(name: $0.name, phone: $0.phone, vehicle: $0.vehicle, plate: $0.plate)
            })
    }
}
