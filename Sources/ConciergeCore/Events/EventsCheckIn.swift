public import Foundation

/// What a door scan shows: admitted, or why not.
public struct CheckInResult: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        case ok
        case alreadyUsed = "already_used"
        case invalid
        case wrongShow = "wrong_show"
        case cancelled
    }

    public let outcome: Outcome
    /// The seats the scan covers, e.g. `Stalls A9, Stalls A10`.
    public let seat: String?
    public let attendee: String?
    /// When the ticket was first admitted (on `already_used`).
    public let firstScannedAt: Date?

    public init(outcome: Outcome, seat: String? = nil, attendee: String? = nil, firstScannedAt: Date? = nil) {
        self.outcome = outcome
        self.seat = seat
        self.attendee = attendee
        self.firstScannedAt = firstScannedAt
    }
}

extension EventsService {
    /// Admits a ticket once, whichever gate or instance scans it first: the booking's signed
    /// `qrCode` admits all its seats, a seat's signed ticket (its QR image) or a ticket's `secret`
    /// its one seat. Each seat's admission is
    /// a unique row, so of two simultaneous scans one inserts and the other hears `already_used`.
    public func checkIn(qrCode: String?, secret: String?, showID: String, gate: String) async throws -> CheckInResult {
        let booking: EventBooking
        let seats: [String]
        if let qrCode {
            guard let signed = signer.verify(qrCode), let found = try await store.booking(orderID: signed.orderID)
            else {
                return CheckInResult(outcome: .invalid)
            }
            booking = found
            if let seat = signed.seatID {
                guard found.tickets.contains(where: { $0.seatID == seat }) else {
                    return CheckInResult(outcome: .invalid)
                }
                seats = [seat]
            } else {
                seats = found.tickets.map(\.seatID)
            }
        } else if let secret, !secret.isEmpty, secret.count <= 200,
            let found = try await store.booking(ticketSecret: secret),
            let ticket = found.tickets.first(where: { $0.secret == secret })
        {
            booking = found
            seats = [ticket.seatID]
        } else {
            return CheckInResult(outcome: .invalid)
        }
        guard booking.showID == showID else { return CheckInResult(outcome: .wrongShow) }
        let venue = try await view(booking).venue
        let names = Dictionary(venue.sections.map { ($0.id, $0.name) }) { first, _ in first }
        let bySeat = venue.seatsByID
        let seatText = seats.map { id in
            bySeat[id].map { "\(names[$0.sectionID] ?? $0.sectionID) \($0.row)\($0.number)" } ?? id
        }.joined(separator: ", ")
        switch booking.state {
        case .confirmed: break
        case .cancelled, .refunded:
            return CheckInResult(outcome: .cancelled, seat: seatText, attendee: booking.contactEmail)
        case .pending, .expired: return CheckInResult(outcome: .invalid, seat: seatText)
        }
        let admission = try await store.admit(orderID: booking.orderID, seatIDs: seats, gate: gate, at: clock.now)
        guard admission.admitted.isEmpty else {
            return CheckInResult(outcome: .ok, seat: seatText, attendee: booking.contactEmail)
        }
        return CheckInResult(
            outcome: .alreadyUsed, seat: seatText, attendee: booking.contactEmail, firstScannedAt: admission.firstAt)
    }
}
