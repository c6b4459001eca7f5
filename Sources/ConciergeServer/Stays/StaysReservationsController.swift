import ConciergeCore
import ConciergeModels
import Foundation
import Hummingbird

/// `/stays/appointment`: make a reservation, list a guest's, cancel one.
struct StaysReservationsController {
    let stays: StaysService
    let accounts: StaysAccountService
    let sessions: SessionService
    let wire: StaysWire

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.group("appointment")
            .add(middleware: PlatformSessionMiddleware(sessions: sessions))
            .group(context: StaysSignedInContext.self)
            .post(use: reserve)
            .get(":id", use: list)
            .delete(":id", use: cancel)
    }

    @Sendable func reserve(request: Request, context: StaysSignedInContext) async throws -> Response {
        let body = try await request.decodeJSON(Stays.ReservationRequest.self, context: context)
        // The key and the body's fingerprint are kept with the reservation, in its transaction:
        // the same key with another body is 422, a retry answers the reservation it made.
        return try await reserve(
            body, idempotencyKey: request.headers[.idempotencyKey],
            requestHash: IdempotencyFingerprint.of(canonicalBody: try Wire.encoder.encode(body)), context: context)
    }

    private func reserve(
        _ body: Stays.ReservationRequest, idempotencyKey: String?, requestHash: String, context: StaysSignedInContext
    ) async throws -> Response {
        let guest = try await accounts.guest(accountID: context.session.accountID)
        let hotel = try await stays.hotel()
        let range = try StaysQuery.range(millis: body.checkIn, body.checkOut, stays: stays, hotel: hotel)
        let people = try stays.people(guests: body.guests, children: body.children, hotel: hotel)
        let outcome = try await stays.reserve(
            guest: guest, roomTypeID: body.roomHotelId, range: range, people: people, purpose: body.purpose,
            idempotencyKey: idempotencyKey, requestHash: requestHash,
            emailVerified: stays.needsVerifiedEmail(roomTypeID: body.roomHotelId, hotel: hotel)
                ? try await accounts.hasVerifiedEmail(accountID: guest.accountID) : true,
            clientIP: context.clientIP,
            hotel: hotel)
        switch outcome {
        case .created(let record, let roomsLeft):
            // Known from the sale itself when paid at the hotel; a held stay asks.
            let available: Int
            if let roomsLeft {
                available = roomsLeft
            } else {
                available = try await stays.freeRooms(for: record, hotel: hotel)
            }
            return try StaysEnvelope.response(
                wire.reservation(record, guest: guest, hotel: hotel, available: available), status: .created,
                message: Self.made(record, hotel: hotel))
        case .replayed(let record):
            let available = try await stays.freeRooms(for: record, hotel: hotel)
            return try StaysEnvelope.response(
                wire.reservation(record, guest: guest, hotel: hotel, available: available), status: .created,
                message: "Reserved already with this Idempotency-Key. \(Self.made(record, hotel: hotel))")
        }
    }

    /// What the answer says: confirmed, or held until the payment's deadline.
    static func made(_ record: StaysReservationRecord, hotel: HotelSettings) -> String {
        guard record.status == .pendingPayment, let prepayment = record.prepayment else {
            return "Reserved. Confirmation \(record.confirmationCode)."
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = hotel.calendar.timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return
            "Held until \(formatter.string(from: prepayment.expiresAt)) (\(hotel.calendar.timeZone.identifier)). Pay \(hotel.formatted(record.totalCents, currency: record.currency)) at payment.checkoutUrl to confirm \(record.confirmationCode)."
    }

    /// `GET /stays/appointment/{guestId}?when=upcoming|past`: only the signed-in guest's own.
    @Sendable func list(request: Request, context: StaysSignedInContext) async throws -> Response {
        let guestID = try Self.id(context)
        let guest = try await accounts.guest(accountID: context.session.accountID)
        guard guestID == guest.guestID else {
            throw ConciergeError(.notFound, code: "not_found", message: "There is no such guest among yours.")
        }
        let when: StaysService.When?
        switch request.uri.queryParameters["when"].map(String.init) {
        case nil, "": when = nil
        case let text?:
            guard let value = StaysService.When(rawValue: text) else {
                throw StaysValidationError(["when": "Use when=upcoming or when=past."])
            }
            when = value
        }
        let hotel = try await stays.hotel()
        let records = try await stays.reservations(guest: guest, when: when, hotel: hotel)
        let free = try await stays.freeRooms(for: records, hotel: hotel)
        return try StaysEnvelope.response(
            records.map { wire.reservation($0, guest: guest, hotel: hotel, available: free[$0.id] ?? 0) })
    }

    /// `DELETE /stays/appointment/{reservationId}`: cancels under the policy.
    @Sendable func cancel(request: Request, context: StaysSignedInContext) async throws -> Response {
        let id = try Self.id(context)
        let guest = try await accounts.guest(accountID: context.session.accountID)
        let record = try await stays.cancel(id: id, guest: guest)
        let hotel = try await stays.hotel()
        var message =
            record.chargedCents > 0
            ? "Cancelled. The first night (\(hotel.formatted(record.chargedCents, currency: record.currency))) is charged under the policy."
            : "Cancelled free of charge."
        if record.refundedCents > 0 {
            message +=
                " \(hotel.formatted(record.refundedCents, currency: record.currency)) is refunded to your payment method."
        }
        let available = try await stays.freeRooms(for: record, hotel: hotel)
        return try StaysEnvelope.response(
            wire.cancellation(record, guest: guest, hotel: hotel, available: available), message: message)
    }

    private static func id(_ context: StaysSignedInContext) throws -> Int {
        let text = try context.parameters.require("id")
        guard text.count <= 15, let id = Int(text), id > 0 else {
            throw StaysValidationError(["id": "Give the id as a positive whole number."])
        }
        return id
    }
}
