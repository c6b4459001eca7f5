public import Foundation

/// One seat's ticket as an image: the seat's signed payload in a QR code.
public struct SeatTicket: Sendable, Equatable {
    public let seatID: String
    /// e.g. `Stalls row A seat 9`.
    public let label: String
    /// `CEVS1.<orderID>.<showID>.<seatID>.<signature>`: admits this seat once at the door.
    public let payload: String

    /// The QR code's error correction: M, as ticket scanners expect (a ticket holds in version 8 or so).
    static let errorCorrection = QRCode.ErrorCorrection.medium

    public func qrCode() throws -> QRCode { try QRCode(text: payload, errorCorrection: Self.errorCorrection) }

    public func svg() throws -> String { try qrCode().svg(title: "Ticket: \(label)") }

    public func png(moduleSize: Int = 8) throws -> Data { Data(try qrCode().png(moduleSize: moduleSize)) }

    /// How to draw `png(moduleSize:)` later, byte for byte: the confirmation email's attachments.
    public func pngRecipe(moduleSize: Int) -> QRCodePNGRecipe? {
        QRCodePNGRecipe(payload: payload, errorCorrection: Self.errorCorrection, moduleSize: moduleSize)
    }
}

extension EventsService {
    /// The ticket of one seat of the caller's confirmed booking, for its QR image. Another
    /// buyer's booking or a seat it does not hold is 404; a booking not (or no longer) paid has
    /// no valid tickets: 409.
    public func seatTicket(orderID: String, seatID: String, accountID: String) async throws -> SeatTicket {
        let booking = try await booking(orderID: orderID, accountID: accountID)
        guard booking.tickets.contains(where: { $0.seatID == seatID }) else { throw ConciergeError.ticketNotFound }
        guard booking.state == .confirmed else { throw ConciergeError.ticketNotValid(booking.state) }
        let view = try await view(booking)
        return seatTickets(view).first { $0.seatID == seatID }!
    }

    /// Every seat's ticket of a booking, in the booking's seat order.
    func seatTickets(_ view: BookingView) -> [SeatTicket] {
        view.booking.tickets.map { ticket in
            SeatTicket(
                seatID: ticket.seatID, label: EventsMessages.seatLabel(ticket.seatID, view.venue),
                payload: signer.seatPayload(
                    orderID: view.booking.orderID, showID: view.booking.showID, seatID: ticket.seatID))
        }
    }
}

extension ConciergeError {
    static let ticketNotFound = ConciergeError(
        .notFound, code: "ticket_not_found", message: "This booking has no ticket for that seat.")

    static func ticketNotValid(_ state: EventBooking.State) -> ConciergeError {
        let why =
            switch state {
            case .pending: "the payment has not arrived yet"
            case .expired: "the hold lapsed before the payment arrived"
            case .cancelled, .refunded: "the booking was cancelled"
            case .confirmed: "it is"
            }
        return ConciergeError(
            .conflict, code: "tickets_not_valid", message: "This booking has no valid tickets: \(why).")
    }
}
