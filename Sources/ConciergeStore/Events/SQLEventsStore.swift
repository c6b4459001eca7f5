public import ConciergeCore
import Foundation

/// `EventsStore` in SQL both engines understand. A checkout's hold, order, payment, booking and
/// tickets are one transaction; a booking's state changes conditionally, with its order's log,
/// its email, its refund and its seats' return in the same transaction.
public struct SQLEventsStore: EventsStore {
    let database: any SQLDatabase
    let venues = VenueCache()

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Thrown inside the checkout transaction to roll it back when the reference was taken.
    private struct ReferenceTaken: Error {}

    public func insertCheckout(
        _ booking: EventBooking, hold: NewHold, order: Order, event: OrderEvent, payment: PaymentRecord,
        cap: OpenOrderCap?, seatCap: SeatsPerShowCap?
    ) async throws -> Bool {
        let locks = [cap?.lockKey, seatCap?.lockKey].compactMap { $0 }
        do {
            try await database.transaction(lockKeys: locks) { db in
                _ = try await SQLHoldStore.place(hold, in: db)
                guard try await SQLOrderStore.insert(order, event: event, in: db) else { throw ReferenceTaken() }
                if let cap { try await SQLOrderLimitStore.enforce(cap, now: order.createdAt, in: db) }
                try await SQLPaymentLedger.insert(payment, in: db)
                try await db.query(
                    """
                    INSERT INTO events_bookings (order_id, session_id, show_id, account_id, contact_email, hold_id, state,
                        payment_provider, payment_id, payment_record_id, amount_cents, currency, expires_at, created_at,
                        updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(booking.orderID), .text(booking.sessionID), .text(booking.showID),
                        .text(booking.accountID), .text(booking.contactEmail), .text(booking.holdID),
                        .text(booking.state.rawValue), .text(booking.paymentProvider), .text(booking.paymentID),
                        .text(booking.paymentRecordID), SQLValue(booking.amountCents), .text(booking.currency),
                        SQLValue(booking.expiresAt), SQLValue(booking.createdAt), SQLValue(booking.createdAt),
                    ])
                try await Self.insertRows(
                    "events_tickets", ["order_id", "seat_id", "price_cents", "secret"],
                    booking.tickets.map {
                        [.text(booking.orderID), .text($0.seatID), SQLValue($0.priceCents), .text($0.secret)]
                    }, in: db)
                if let seatCap {
                    try await Self.enforce(seatCap, adding: booking.tickets.count, now: booking.createdAt, in: db)
                }
            }
            return true
        } catch is ReferenceTaken {
            return false
        }
    }

    /// Counts the account's seats of the show — confirmed, or held by an unexpired order — in the
    /// checkout's transaction, the new ones included.
    static func enforce(_ cap: SeatsPerShowCap, adding: Int, now: Date, in db: any SQLExecutor) async throws {
        let seats = try await db.query(
            """
            SELECT t.seat_id FROM events_tickets t JOIN events_bookings b ON b.order_id = t.order_id
            WHERE b.account_id = ? AND b.show_id = ? AND (b.state = 'confirmed' OR (b.state = 'pending' AND b.expires_at > ?))
            """, [.text(cap.accountID), .text(cap.showID), SQLValue(now)]
        ).count
        if seats > cap.max { throw cap.refusal(having: seats - adding) }
    }

    public func booking(orderID: String) async throws -> EventBooking? {
        try await bookings(where: "b.order_id = ?", [.text(orderID)], in: database).first
    }

    public func booking(sessionID: String) async throws -> EventBooking? {
        try await bookings(where: "b.session_id = ?", [.text(sessionID)], in: database).first
    }

    public func bookings(accountID: String) async throws -> [EventBooking] {
        try await bookings(where: "b.account_id = ?", [.text(accountID)], in: database)
    }

    public func bookings(showID: String) async throws -> [EventBooking] {
        try await bookings(where: "b.show_id = ?", [.text(showID)], in: database, limit: 100_000)
    }

    func bookings(
        where condition: String, _ binds: [SQLValue], in db: any SQLExecutor, limit: Int = 200, offset: Int = 0
    ) async throws -> [EventBooking] {
        let rows = try await db.query(
            """
            SELECT b.*, o.reference AS reference, o.public_secret AS public_secret
            FROM events_bookings b JOIN orders o ON o.id = b.order_id
            WHERE \(condition) ORDER BY b.created_at DESC, b.order_id LIMIT \(limit) OFFSET \(offset)
            """, binds)
        var bookings: [EventBooking] = []
        for row in rows {
            let orderID = try row.string("order_id")
            let tickets = try await db.query(
                "SELECT * FROM events_tickets WHERE order_id = ? ORDER BY seat_id", [.text(orderID)]
            ).map {
                EventBooking.Ticket(
                    seatID: try $0.string("seat_id"), priceCents: try $0.int("price_cents"),
                    secret: try $0.string("secret"))
            }
            guard let state = EventBooking.State(rawValue: try row.string("state")) else { continue }
            bookings.append(
                EventBooking(
                    orderID: orderID,
                    reference: OrderReference(
                        code: try row.string("reference"), secret: try row.string("public_secret")),
                    sessionID: try row.string("session_id"), showID: try row.string("show_id"),
                    accountID: try row.string("account_id"), contactEmail: try row.string("contact_email"),
                    holdID: try row.string("hold_id"), state: state,
                    paymentProvider: try row.string("payment_provider"),
                    paymentID: try row.string("payment_id"), paymentRecordID: try row.string("payment_record_id"),
                    amountCents: try row.int("amount_cents"), currency: try row.string("currency"),
                    expiresAt: try row.date("expires_at"), createdAt: try row.date("created_at"), tickets: tickets))
        }
        return bookings
    }
}
