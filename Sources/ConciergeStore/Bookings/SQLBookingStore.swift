public import ConciergeCore
public import Foundation

/// `BookingStore` in SQL both engines understand. (The notification queue is `SQLNotificationQueue`.)
public struct SQLBookingStore: BookingStore {
    private let database: any SQLDatabase
    /// PostgreSQL's bookings arriving together share one statement and one commit.
    private let chains: ClaimedChainWriter?

    public init(database: any SQLDatabase) {
        self.init(
            database: database, chains: database.dialect == .postgres ? ClaimedChainWriter(database: database) : nil)
    }

    /// With a writer of its own (tests hold its statements to line bookings up behind them).
    init(database: any SQLDatabase, chains: ClaimedChainWriter?) {
        self.database = database
        self.chains = chains
    }

    // MARK: Idempotency keys (the rides booking route's scope)

    private var keys: SQLIdempotencyKeys { SQLIdempotencyKeys(database: database) }

    private static func ridesClaim(customerID: String, key: String, requestHash: String, now: Date, staleBefore: Date)
        -> IdempotencyClaimRequest
    {
        IdempotencyClaimRequest(
            scope: BookingService.idempotencyScope, accountID: customerID, key: key, requestHash: requestHash, now: now,
            staleBefore: staleBefore)
    }

    public func claimIdempotencyKey(
        customerID: String, key: String, requestHash: String, now: Date, staleBefore: Date
    ) async throws -> IdempotencyClaim {
        try await keys.claim(
            Self.ridesClaim(
                customerID: customerID, key: key, requestHash: requestHash, now: now, staleBefore: staleBefore))
    }

    public func lookUpIdempotencyKey(customerID: String, key: String, requestHash: String, staleBefore: Date)
        async throws -> IdempotencyClaim?
    {
        try await keys.lookUp(
            Self.ridesClaim(
                customerID: customerID, key: key, requestHash: requestHash, now: staleBefore,
                staleBefore: staleBefore))
    }

    public func completeIdempotencyKey(customerID: String, key: String, response: String) async throws {
        try await keys.complete(
            scope: BookingService.idempotencyScope, accountID: customerID, key: key, response: response)
    }

    public func releaseIdempotencyKey(customerID: String, key: String) async throws {
        try await keys.release(scope: BookingService.idempotencyScope, accountID: customerID, key: key)
    }

    public func pruneIdempotencyKeys(before date: Date) async throws {
        try await keys.prune(before: date)
    }

    // MARK: Bookings

    /// The booking columns plus its payment from the ledger (one payment per ride booking).
    /// The legacy payment columns of `bookings` are no longer read.
    static let selectBookings = """
        SELECT b.*, p.id AS ledger_payment_record_id, p.provider AS ledger_provider,
            p.provider_payment_id AS ledger_payment_id, p.checkout_url AS ledger_checkout_url,
            p.status AS ledger_payment_status
        FROM bookings b LEFT JOIN payments p ON p.order_id = b.id
        """

    public func insertBooking(_ new: NewBooking) async throws -> BookingInsertion {
        // On PostgreSQL the common case — no key, or a key not seen before — is one statement,
        // shared with the bookings that arrive at the same time: one round trip, one commit.
        // Anything else (a repeat, a stale claim to take over, a claim taken before an outside
        // provider was called) takes the transaction below.
        if let chains, new.idempotency?.claimedBefore != true {
            let chain = SQLOrderStore.rows(of: new.order, event: orderEvent(of: new), with: try rows(of: new))
            switch try await chains.write(
                ClaimedChain(
                    claim: new.idempotency.map { SQLIdempotencyKeys.claimRow($0.claim, answer: $0.response) },
                    claimConflict: SQLIdempotencyKeys.conflictColumns, head: chain.head, dependents: chain.dependents))
            {
            case .written: return .inserted
            case .headTaken: return .referenceTaken
            case .claimTaken: break
            }
        }
        do {
            return try await database.transaction { db in
                if let idempotency = new.idempotency {
                    let claim =
                        idempotency.claimedBefore
                        ? try await SQLIdempotencyKeys.answer(idempotency, db: db)
                        : try await SQLIdempotencyKeys.claim(idempotency.claim, answer: idempotency.response, db: db)
                    guard claim == .claimed else { return .keyTaken(claim) }
                }
                // The ride, its event and its payment go in only with the order (one round
                // trip on PostgreSQL); a taken reference undoes the claim too.
                let written = try await SQLOrderStore.insert(
                    new.order, event: orderEvent(of: new), with: try rows(of: new), in: db)
                guard written else { throw ReferenceTaken() }
                return .inserted
            }
        } catch is ReferenceTaken {
            return .referenceTaken
        }
    }

    private struct ReferenceTaken: Error {}

    private func orderEvent(of new: NewBooking) -> OrderEvent {
        OrderEvent(
            orderID: new.order.id, at: new.event.at, type: new.event.type, actor: new.event.actor,
            detail: new.event.detail)
    }

    /// The ride, its first event and its payment record: rows that go in only with the order.
    private func rows(of new: NewBooking) throws -> [InsertRows] {
        [
            InsertRows(table: "bookings", row: BookingRow.columns(of: new.booking)), Self.rows(of: new.event),
            try SQLPaymentLedger.rows(of: new.payment),
        ]
    }

    public func booking(reference: String) async throws -> Booking? {
        try await database.query("\(Self.selectBookings) WHERE b.reference = ?", [.text(reference)]).first
            .map(BookingRow.booking(from:))
    }

    public func booking(paymentProvider: String, paymentID: String) async throws -> Booking? {
        try await database.query(
            "\(Self.selectBookings) WHERE p.provider = ? AND p.provider_payment_id = ?",
            [.text(paymentProvider), .text(paymentID)]
        ).first.map(BookingRow.booking(from:))
    }

    public func bookings(customerID: String, limit: Int, offset: Int) async throws -> [Booking] {
        try await database.query(
            "\(Self.selectBookings) WHERE b.customer_id = ? ORDER BY b.created_at DESC, b.id DESC LIMIT ? OFFSET ?",
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
        bookingID: String, from: Set<BookingState>, to: BookingState, event: BookingEvent, driver: Driver?
    ) async throws -> Booking? {
        let states = from.map(\.rawValue).sorted()
        return try await database.transaction { db in
            // The state check and the change are one statement: of two concurrent deliveries on
            // two instances, exactly one sees a row come back.
            let rows = try await db.query(
                """
                UPDATE bookings SET state = ?
                WHERE id = ? AND state IN (\(Array(repeating: "?", count: states.count).joined(separator: ", ")))
                RETURNING id
                """,
                [.text(to.rawValue), .text(bookingID)] + states.map { .text($0) })
            guard !rows.isEmpty else { return nil }
            if let driver {
                try await db.query(
                    "UPDATE bookings SET driver_name = ?, driver_phone = ?, driver_vehicle = ?, driver_plate = ? WHERE id = ?",
                    [
                        .text(driver.name), .text(driver.phone), .text(driver.vehicle), .text(driver.plate),
                        .text(bookingID),
                    ])
            }
            try await Self.insert(event, db: db)
            // The order follows the ride, in the same commit.
            try await SQLOrderStore.move(
                orderID: bookingID, to: to.rawValue,
                event: OrderEvent(
                    orderID: bookingID, at: event.at, type: event.type, actor: event.actor, detail: event.detail),
                in: db)
            guard let row = try await db.query("\(Self.selectBookings) WHERE b.id = ?", [.text(bookingID)]).first
            else { return nil }
            return try BookingRow.booking(from: row)
        }
    }

    public func bookings(state: BookingState?, pickupFrom: Date?, pickupTo: Date?, limit: Int, offset: Int) async throws
        -> [Booking]
    {
        var conditions: [String] = []
        var binds: [SQLValue] = []
        if let state {
            conditions.append("b.state = ?")
            binds.append(.text(state.rawValue))
        }
        if let pickupFrom {
            conditions.append("b.pickup_at >= ?")
            binds.append(SQLValue(pickupFrom))
        }
        if let pickupTo {
            conditions.append("b.pickup_at < ?")
            binds.append(SQLValue(pickupTo))
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try await database.query(
            "\(Self.selectBookings) \(filter) ORDER BY b.pickup_at, b.id LIMIT ? OFFSET ?",
            binds + [SQLValue(limit), SQLValue(offset)]
        ).map(BookingRow.booking(from:))
    }

    private static func rows(of event: BookingEvent) -> InsertRows {
        InsertRows(
            table: "booking_events",
            row: [
                ("booking_id", .text(event.bookingID)), ("at", SQLValue(event.at)), ("type", .text(event.type)),
                ("actor", .text(event.actor)), ("detail", .text(event.detail)),
            ])
    }

    static func insert(_ event: BookingEvent, db: any SQLExecutor) async throws {
        try await db.query(
            "INSERT INTO booking_events (booking_id, at, type, actor, detail) VALUES (?, ?, ?, ?, ?)",
            [.text(event.bookingID), SQLValue(event.at), .text(event.type), .text(event.actor), .text(event.detail)])
    }
}
