public import ConciergeCore
public import Foundation

/// `BookingStore` in SQL both engines understand. (The notification queue is `SQLNotificationQueue`.)
public struct SQLBookingStore: BookingStore {
    private let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    // MARK: Idempotency keys

    public func claimIdempotencyKey(
        customerID: String, key: String, requestHash: String, now: Date, staleBefore: Date
    ) async throws -> IdempotencyClaim {
        try await database.transaction { db in
            try await Self.claim(
                IdempotencyClaimRequest(
                    customerID: customerID, key: key, requestHash: requestHash, now: now, staleBefore: staleBefore),
                db: db)
        }
    }

    static func claim(_ request: IdempotencyClaimRequest, db: any SQLExecutor) async throws -> IdempotencyClaim {
        let inserted = try await db.query(
            """
            INSERT INTO idempotency_keys (customer_id, key, request_hash, response, created_at) VALUES (?, ?, ?, NULL, ?)
            ON CONFLICT (customer_id, key) DO NOTHING RETURNING key
            """, [.text(request.customerID), .text(request.key), .text(request.requestHash), SQLValue(request.now)])
        if !inserted.isEmpty { return .claimed }
        // An abandoned claim: the conditional update lets exactly one retry take it over.
        let takenOver = try await db.query(
            """
            UPDATE idempotency_keys SET request_hash = ?, created_at = ?
            WHERE customer_id = ? AND key = ? AND response IS NULL AND created_at < ? RETURNING key
            """,
            [
                .text(request.requestHash), SQLValue(request.now), .text(request.customerID), .text(request.key),
                SQLValue(request.staleBefore),
            ])
        if !takenOver.isEmpty { return .claimed }
        return try await existingClaim(request, db: db) ?? .inProgress
    }

    public func lookUpIdempotencyKey(customerID: String, key: String, requestHash: String, staleBefore: Date)
        async throws -> IdempotencyClaim?
    {
        try await Self.existingClaim(
            IdempotencyClaimRequest(
                customerID: customerID, key: key, requestHash: requestHash, now: staleBefore, staleBefore: staleBefore),
            db: database, ignoringStale: true)
    }

    /// The key's row as a claim outcome; nil when there is none (or, with `ignoringStale`, when
    /// it is an abandoned claim a new request may take over).
    private static func existingClaim(
        _ request: IdempotencyClaimRequest, db: any SQLExecutor, ignoringStale: Bool = false
    ) async throws -> IdempotencyClaim? {
        guard
            let row = try await db.query(
                "SELECT request_hash, response, created_at FROM idempotency_keys WHERE customer_id = ? AND key = ?",
                [.text(request.customerID), .text(request.key)]
            ).first
        else { return nil }
        if let response = try row.optionalString("response") {
            return try row.string("request_hash") == request.requestHash ? .replay(response: response) : .mismatch
        }
        if ignoringStale, try row.date("created_at") < request.staleBefore { return nil }
        return try row.string("request_hash") == request.requestHash ? .inProgress : .mismatch
    }

    public func completeIdempotencyKey(customerID: String, key: String, response: String) async throws {
        try await database.query(
            "UPDATE idempotency_keys SET response = ? WHERE customer_id = ? AND key = ?",
            [.text(response), .text(customerID), .text(key)])
    }

    public func releaseIdempotencyKey(customerID: String, key: String) async throws {
        try await database.query(
            "DELETE FROM idempotency_keys WHERE customer_id = ? AND key = ? AND response IS NULL",
            [.text(customerID), .text(key)])
    }

    public func pruneIdempotencyKeys(before date: Date) async throws {
        try await database.query("DELETE FROM idempotency_keys WHERE created_at < ?", [SQLValue(date)])
    }

    // MARK: Bookings

    public func insertBooking(_ booking: Booking, event: BookingEvent, claiming: IdempotencyClaimRequest?)
        async throws -> BookingInsertion
    {
        do {
            return try await database.transaction { db in
                if let claiming {
                    let claim = try await Self.claim(claiming, db: db)
                    guard claim == .claimed else { return .keyTaken(claim) }
                }
                let columns = BookingRow.columns(of: booking)
                let inserted = try await db.query(
                    """
                    INSERT INTO bookings (\(columns.map(\.0).joined(separator: ", ")))
                    VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))
                    ON CONFLICT (reference) DO NOTHING RETURNING id
                    """, columns.map(\.1))
                // Undo the claim with it: the next reference is drawn under a fresh claim.
                guard !inserted.isEmpty else { throw ReferenceTaken() }
                try await Self.insert(event, db: db)
                return .inserted
            }
        } catch is ReferenceTaken {
            return .referenceTaken
        }
    }

    private struct ReferenceTaken: Error {}

    public func attachPayment(
        bookingID: String, provider: String, paymentID: String, checkoutURL: String, answering: IdempotencyAnswer?
    ) async throws {
        try await database.transaction { db in
            try await db.query(
                "UPDATE bookings SET payment_provider = ?, payment_id = ?, checkout_url = ? WHERE id = ?",
                [.text(provider), .text(paymentID), .text(checkoutURL), .text(bookingID)])
            if let answering {
                try await db.query(
                    "UPDATE idempotency_keys SET response = ? WHERE customer_id = ? AND key = ?",
                    [.text(answering.response), .text(answering.customerID), .text(answering.key)])
            }
        }
    }

    public func deleteBookingWithoutPayment(id: String) async throws {
        try await database.transaction { db in
            try await db.query("DELETE FROM booking_events WHERE booking_id = ?", [.text(id)])
            try await db.query("DELETE FROM bookings WHERE id = ? AND payment_id IS NULL", [.text(id)])
        }
    }

    public func booking(reference: String) async throws -> Booking? {
        try await database.query("SELECT * FROM bookings WHERE reference = ?", [.text(reference)]).first
            .map(BookingRow.booking(from:))
    }

    public func booking(paymentProvider: String, paymentID: String) async throws -> Booking? {
        try await database.query(
            "SELECT * FROM bookings WHERE payment_provider = ? AND payment_id = ?",
            [.text(paymentProvider), .text(paymentID)]
        ).first.map(BookingRow.booking(from:))
    }

    public func bookings(customerID: String, limit: Int, offset: Int) async throws -> [Booking] {
        try await database.query(
            "SELECT * FROM bookings WHERE customer_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
            [.text(customerID), SQLValue(limit), SQLValue(offset)]
        ).map(BookingRow.booking(from:))
    }

    public func events(bookingID: String) async throws -> [BookingEvent] {
        try await database.query("SELECT * FROM booking_events WHERE booking_id = ? ORDER BY seq", [.text(bookingID)])
            .map {
                BookingEvent(
                    bookingID: try $0.string("booking_id"), at: try $0.date("at"), type: try $0.string("type"),
                    actor: try $0.string("actor"), detail: try $0.string("detail"))
            }
    }

    public func transition(
        bookingID: String, from: Set<BookingState>, to: BookingState, paymentStatus: PaymentStatus?,
        event: BookingEvent, notification: PendingNotification?
    ) async throws -> Booking? {
        let states = from.map(\.rawValue).sorted()
        return try await database.transaction { db in
            // The state check and the change are one statement: of two concurrent deliveries on
            // two instances, exactly one sees a row come back.
            let rows = try await db.query(
                """
                UPDATE bookings SET state = ?, payment_status = COALESCE(?, payment_status)
                WHERE id = ? AND state IN (\(Array(repeating: "?", count: states.count).joined(separator: ", ")))
                RETURNING *
                """,
                [.text(to.rawValue), SQLValue(paymentStatus?.rawValue), .text(bookingID)] + states.map { .text($0) })
            guard let row = rows.first else { return nil }
            try await Self.insert(event, db: db)
            if let notification {
                try await db.query(
                    """
                    INSERT INTO notification_outbox
                        (dedupe_key, channel, recipient, subject, body, status, attempts, next_attempt_at, created_at)
                    VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)
                    ON CONFLICT (dedupe_key) DO NOTHING
                    """,
                    [
                        .text(notification.dedupeKey), .text(notification.channel.rawValue),
                        .text(notification.recipient),
                        .text(notification.subject), .text(notification.body), SQLValue(event.at), SQLValue(event.at),
                    ])
            }
            return try BookingRow.booking(from: row)
        }
    }

    public func bookings(state: BookingState?, pickupFrom: Date?, pickupTo: Date?, limit: Int, offset: Int) async throws
        -> [Booking]
    {
        var conditions: [String] = []
        var binds: [SQLValue] = []
        if let state {
            conditions.append("state = ?")
            binds.append(.text(state.rawValue))
        }
        if let pickupFrom {
            conditions.append("pickup_at >= ?")
            binds.append(SQLValue(pickupFrom))
        }
        if let pickupTo {
            conditions.append("pickup_at < ?")
            binds.append(SQLValue(pickupTo))
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try await database.query(
            "SELECT * FROM bookings \(filter) ORDER BY pickup_at, id LIMIT ? OFFSET ?",
            binds + [SQLValue(limit), SQLValue(offset)]
        ).map(BookingRow.booking(from:))
    }

    public func assignDriver(bookingID: String, driver: Driver) async throws {
        try await database.query(
            "UPDATE bookings SET driver_name = ?, driver_phone = ?, driver_vehicle = ?, driver_plate = ? WHERE id = ?",
            [.text(driver.name), .text(driver.phone), .text(driver.vehicle), .text(driver.plate), .text(bookingID)])
    }

    public func recordPaymentStatus(bookingID: String, status: PaymentStatus) async throws {
        try await database.query(
            "UPDATE bookings SET payment_status = ? WHERE id = ?", [.text(status.rawValue), .text(bookingID)])
    }

    public func lapsedUnpaidBookings(now: Date, limit: Int) async throws -> [Booking] {
        try await database.query(
            "SELECT * FROM bookings WHERE state = 'awaiting_payment' AND quote_expires_at <= ? ORDER BY quote_expires_at LIMIT ?",
            [SQLValue(now), SQLValue(limit)]
        ).map(BookingRow.booking(from:))
    }

    private static func insert(_ event: BookingEvent, db: any SQLExecutor) async throws {
        try await db.query(
            "INSERT INTO booking_events (booking_id, at, type, actor, detail) VALUES (?, ?, ?, ?, ?)",
            [.text(event.bookingID), SQLValue(event.at), .text(event.type), .text(event.actor), .text(event.detail)])
    }
}
