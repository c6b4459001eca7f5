public import ConciergeCore
public import Foundation

/// The prepaid side of `SQLStaysStore`: finding a reservation by its order, return secret or
/// id for the payment's owner, the holds that lapsed, and the reservation's payment transitions
/// (confirm, expire, cancel with its refund) in one transaction each.
extension SQLStaysStore {
    public func reservation(id: Int) async throws -> StaysReservationRecord? {
        try await database.query("SELECT * FROM stays_reservations WHERE id = ?", [SQLValue(id)]).first
            .map(Self.reservation(from:))
    }

    public func reservation(orderID: String) async throws -> StaysReservationRecord? {
        try await database.query("SELECT * FROM stays_reservations WHERE order_id = ?", [.text(orderID)]).first
            .map(Self.reservation(from:))
    }

    public func reservation(returnSecret: String) async throws -> StaysReservationRecord? {
        try await database.query("SELECT * FROM stays_reservations WHERE return_secret = ?", [.text(returnSecret)])
            .first.map(Self.reservation(from:))
    }

    public func guest(guestID: Int) async throws -> StaysGuest? {
        try await database.query("SELECT * FROM stays_guests WHERE guest_id = ?", [SQLValue(guestID)]).first
            .map(Self.guest(from:))
    }

    public func lapsedPendingReservations(now: Date, limit: Int) async throws -> [StaysReservationRecord] {
        try await database.query(
            """
            SELECT * FROM stays_reservations WHERE status = 'pending_payment' AND pay_by <= ?
            ORDER BY pay_by, id LIMIT ?
            """, [SQLValue(now), SQLValue(limit)]
        ).map(Self.reservation(from:))
    }

    public func apply(_ transition: StaysTransition) async throws -> StaysReservationRecord? {
        try await database.transaction { db in
            var sets = ["status = ?"]
            var binds: [SQLValue] = [.text(transition.to.rawValue)]
            if transition.to == .cancelled {
                sets.append("cancelled_at = ?")
                binds.append(SQLValue(transition.at))
            }
            if let refunded = transition.refundedCents {
                sets.append("refunded_cents = ?")
                binds.append(SQLValue(refunded))
            }
            if let charged = transition.chargedCents {
                sets.append("charged_cents = ?")
                binds.append(SQLValue(charged))
            }
            if transition.paid {
                sets.append("paid_at = COALESCE(paid_at, ?)")
                binds.append(SQLValue(transition.at))
            }
            let states = transition.from.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            guard
                let row = try await db.query(
                    """
                    UPDATE stays_reservations SET \(sets.joined(separator: ", "))
                    WHERE id = ? AND status IN (\(states)) RETURNING *
                    """, binds + [SQLValue(transition.reservationID)]
                ).first
            else { return nil }
            let record = try Self.reservation(from: row)
            if transition.returnSoldNights {
                // Paid at the hotel: its nights were sold without a hold, and go back the same way,
                // once, under the conditional state change above.
                let keys = (0..<record.checkIn.days(to: record.checkOut, in: Self.utc)).map {
                    StaysUnits.key(roomType: record.roomTypeID, night: record.checkIn.adding(days: $0, in: Self.utc))
                }
                try await SQLHoldStore.returnWithoutHold(keys, in: db)
            }
            if let event = transition.orderEvent {
                try await SQLOrderStore.move(orderID: event.orderID, to: transition.to.rawValue, event: event, in: db)
            }
            if let refund = transition.refund { try await SQLPaymentLedger.recordRefund(refund, in: db) }
            if let status = transition.paymentStatus, let paymentID = record.prepayment?.paymentRecordID {
                try await db.query(
                    "UPDATE payments SET status = ? WHERE id = ?", [.text(status.rawValue), .text(paymentID)])
            }
            if let message = try transition.email(record) {
                try await OutboxWriter.enqueue(message, in: db, at: transition.at)
            }
            return record
        }
    }

    /// Nights are dates: counting them needs no zone.
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }()
}
