public import ConciergeCore
public import Foundation

/// `StaysStore` in SQL. A night is the platform's inventory unit `stays:room{id}:{date}`: paid
/// at the hotel, its `sold` grows only `WHERE held + sold + 1 <= capacity`; prepaid, the
/// platform's hold takes it the same way. Both inside the reservation's transaction: of two
/// instances racing for the last room, the second finds no row to update, throws `sold_out` and
/// rolls back.
public struct SQLStaysStore: StaysStore {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    // MARK: Guests

    public func guest(accountID: String) async throws -> StaysGuest? {
        try await database.query("SELECT * FROM stays_guests WHERE account_id = ?", [.text(accountID)]).first
            .map(Self.guest(from:))
    }

    public func ensureGuest(
        accountID: String, username: String, firstName: String, lastName: String, email: String, phone: String,
        at: Date
    ) async throws -> StaysGuest {
        try await database.query(
            """
            INSERT INTO stays_guests (account_id, username, first_name, last_name, email, phone, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id) DO NOTHING
            """,
            [
                .text(accountID), .text(username), .text(firstName), .text(lastName), .text(email), .text(phone),
                SQLValue(at),
            ])
        guard let guest = try await guest(accountID: accountID) else {
            throw ConciergeError(.unavailable(retryAfterSeconds: 1), code: "guest_missing", message: "Try again.")
        }
        return guest
    }

    public func updateGuest(guestID: Int, firstName: String?, lastName: String?, phone: String?) async throws
        -> StaysGuest?
    {
        try await database.query(
            """
            UPDATE stays_guests SET first_name = COALESCE(?, first_name), last_name = COALESCE(?, last_name),
                phone = COALESCE(?, phone)
            WHERE guest_id = ? RETURNING *
            """, [SQLValue(firstName), SQLValue(lastName), SQLValue(phone), SQLValue(guestID)]
        ).first.map(Self.guest(from:))
    }

    // MARK: Inventory and reservations

    public func free(_ nights: [StayNight], rooms: [Int64: Int]) async throws -> [Int64: Int] {
        guard !nights.isEmpty, !rooms.isEmpty else { return [:] }
        let types = rooms.keys.sorted()
        // The nights are consecutive. SQLite compares text byte by byte, so a type's nights are
        // exactly the keys between its first and its last: one index range per type. PostgreSQL
        // may compare by a language's collation, so it gets every key (one index scan of them).
        let condition: String
        let binds: [SQLValue]
        switch database.dialect {
        case .sqlite:
            let first = nights.min() ?? nights[0]
            let last = nights.max() ?? nights[0]
            condition = types.map { _ in "(unit_key >= ? AND unit_key <= ?)" }.joined(separator: " OR ")
            binds = types.flatMap {
                [.text(StaysUnits.key(roomType: $0, night: first)), .text(StaysUnits.key(roomType: $0, night: last))]
            }
        case .postgres:
            let keys = types.flatMap { type in nights.map { StaysUnits.key(roomType: type, night: $0) } }
            condition = "unit_key IN (\(Self.marks(keys.count)))"
            binds = keys.map { .text($0) }
        }
        // A key is its type's prefix and a ten-character night after a colon: grouping by the
        // prefix counts each type in the database, and only one row per type comes back.
        let rows = try await database.query(
            """
            SELECT substr(unit_key, 1, length(unit_key) - 11) AS prefix, MIN(capacity - held - sold) AS free,
                COUNT(*) AS counted
            FROM inventory_units WHERE \(condition)
            GROUP BY substr(unit_key, 1, length(unit_key) - 11)
            """, binds)
        let byPrefix = Dictionary(types.map { (String(StaysUnits.prefix(roomType: $0).dropLast()), $0) }) { a, _ in a }
        var free: [Int64: Int] = [:]
        for type in types { free[type] = rooms[type] ?? 0 }
        for row in rows {
            guard let type = byPrefix[try row.string("prefix")] else { continue }
            let counted = try row.int("counted")
            let fewest = max(0, try row.int("free"))
            // Nights without a unit yet have the whole count free.
            free[type] = counted < nights.count ? min(fewest, rooms[type] ?? 0) : fewest
        }
        return free
    }

    public func nights(_ nights: [StayNight], rooms: [Int64: Int]) async throws
        -> [Int64: [StayNight: StaysNightCount]]
    {
        let keys = rooms.keys.sorted().flatMap { type in nights.map { StaysUnits.key(roomType: type, night: $0) } }
        var counted: [Int64: [StayNight: StaysNightCount]] = [:]
        // Chunks keep the bound values well inside both engines' limits (a year of four types).
        for chunk in stride(from: 0, to: keys.count, by: 500).map({ Array(keys[$0..<min($0 + 500, keys.count)]) }) {
            for row in try await database.query(
                "SELECT unit_key, capacity, held, sold FROM inventory_units WHERE unit_key IN (\(Self.marks(chunk.count)))",
                chunk.map { .text($0) })
            {
                guard let unit = StaysUnits.parse(try row.string("unit_key")) else { continue }
                counted[unit.roomType, default: [:]][unit.night] = StaysNightCount(
                    rooms: try row.int("capacity"), held: try row.int("held"), sold: try row.int("sold"))
            }
        }
        return counted
    }

    public func reserve(
        _ reservation: NewStaysReservation, cap: OpenOrderCap?,
        email: @escaping @Sendable (StaysReservationRecord) throws -> OutboxMessage?
    ) async throws -> StaysReserveOutcome {
        do {
            let (record, roomsLeft) = try await database.transaction(lockKeys: cap.map { [$0.lockKey] } ?? []) {
                db in
                let keys = reservation.unitKeys
                var roomsLeft: Int?
                if let prepayment = reservation.prepayment {
                    // Held, not sold: the platform's hold takes every night or none.
                    try await SQLHoldStore.createUnits(keys, capacity: reservation.rooms, in: db)
                    do {
                        _ = try await SQLHoldStore.place(prepayment.hold, in: db)
                    } catch let error as ConciergeError where error.code == "hold_unavailable" {
                        throw ConciergeError.staysSoldOut
                    }
                    guard try await SQLOrderStore.insert(prepayment.order, event: prepayment.event, in: db) else {
                        throw ConciergeError(
                            .unavailable(retryAfterSeconds: 1), code: "reference_collision",
                            message: "Two orders drew the same reference at once. Please try again.")
                    }
                    try await SQLPaymentLedger.insert(prepayment.payment, in: db)
                    if let cap {
                        try await SQLOrderLimitStore.enforce(cap, now: reservation.createdAt, in: db)
                    }
                } else {
                    do {
                        roomsLeft = try await SQLHoldStore.sellWithoutHold(
                            keys, capacity: reservation.rooms, in: db)
                    } catch let error as ConciergeError where error.code == "hold_unavailable" {
                        throw ConciergeError.staysSoldOut
                    }
                }
                let record = try await Self.insert(reservation, in: db)
                if let key = reservation.idempotencyKey {
                    let claimed = try await db.query(
                        """
                        INSERT INTO stays_idempotency_keys
                            (account_id, idempotency_key, reservation_id, created_at, request_hash)
                        VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id, idempotency_key) DO NOTHING
                        RETURNING reservation_id
                        """,
                        [
                            .text(reservation.guest.accountID), .text(key), SQLValue(record.id),
                            SQLValue(reservation.createdAt), SQLValue(reservation.requestHash),
                        ])
                    // Made before: roll this one back and answer that one.
                    guard !claimed.isEmpty else { throw KeyUsedBefore() }
                }
                if let message = try email(record) {
                    try await OutboxWriter.enqueue(message, in: db, at: reservation.createdAt)
                }
                return (record, roomsLeft)
            }
            return .created(record, roomsLeft: roomsLeft)
        } catch is KeyUsedBefore {
            guard let key = reservation.idempotencyKey,
                let earlier = try await self.reservation(
                    accountID: reservation.guest.accountID, idempotencyKey: key, requestHash: reservation.requestHash)
            else { throw ConciergeError.staysSoldOut }
            return .replayed(earlier)
        } catch let error as ConciergeError where error == .staysSoldOut {
            // A repeat of a request that took the last room finds the night full: answer the
            // reservation it made.
            if let key = reservation.idempotencyKey,
                let earlier = try await self.reservation(
                    accountID: reservation.guest.accountID, idempotencyKey: key, requestHash: reservation.requestHash)
            {
                return .replayed(earlier)
            }
            throw error
        }
    }

    private struct KeyUsedBefore: Error {}

    public func reservation(accountID: String, idempotencyKey key: String, requestHash: String?) async throws
        -> StaysReservationRecord?
    {
        guard
            let row = try await database.query(
                """
                SELECT r.*, k.request_hash AS key_request_hash
                FROM stays_reservations r JOIN stays_idempotency_keys k ON k.reservation_id = r.id
                WHERE k.account_id = ? AND k.idempotency_key = ?
                """, [.text(accountID), .text(key)]
            ).first
        else { return nil }
        // Keys from before fingerprints were kept answer as they did.
        if let requestHash, let stored = try row.optionalString("key_request_hash"), stored != requestHash {
            throw ConciergeError.idempotencyKeyReused("reservation")
        }
        return try Self.reservation(from: row)
    }

    private static func insert(_ reservation: NewStaysReservation, in db: any SQLExecutor) async throws
        -> StaysReservationRecord
    {
        let quote = reservation.quote
        let prepayment = reservation.prepayment?.summary
        let rows = try await db.query(
            """
            INSERT INTO stays_reservations (guest_id, account_id, room_type_id, check_in, check_out, people, purpose,
                accommodation_cents, city_tax_cents, vat_included_cents, first_night_cents, currency, status,
                confirmation_code, created_at, payment_policy, order_id, order_reference, return_secret, hold_id,
                payment_provider, payment_id, payment_record_id, checkout_url, pay_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            RETURNING *
            """,
            [
                SQLValue(reservation.guest.guestID), .text(reservation.guest.accountID),
                .integer(reservation.roomTypeID),
                .text(reservation.range.checkIn.description), .text(reservation.range.checkOut.description),
                SQLValue(reservation.people), .text(reservation.purpose), SQLValue(quote.accommodationCents),
                SQLValue(quote.cityTaxCents), SQLValue(quote.vatIncludedCents), SQLValue(quote.nightlyCents.first ?? 0),
                .text(reservation.currency),
                .text(
                    (prepayment == nil ? StaysReservationRecord.Status.confirmed : .pendingPayment).rawValue),
                .text(reservation.confirmationCode), SQLValue(reservation.createdAt),
                .text((prepayment == nil ? HotelSettings.PaymentPolicy.payAtHotel : .prepay).rawValue),
                SQLValue(prepayment?.orderID), SQLValue(prepayment?.reference), SQLValue(prepayment?.returnSecret),
                SQLValue(prepayment?.holdID), SQLValue(prepayment?.provider), SQLValue(prepayment?.providerPaymentID),
                SQLValue(prepayment?.paymentRecordID), SQLValue(prepayment?.checkoutURL),
                SQLValue(prepayment?.expiresAt),
            ])
        guard let row = rows.first else { throw ConciergeError.staysSoldOut }
        return try Self.reservation(from: row)
    }

    public func reservations(guestID: Int) async throws -> [StaysReservationRecord] {
        try await database.query(
            "SELECT * FROM stays_reservations WHERE guest_id = ? ORDER BY check_in, id LIMIT 1000", [SQLValue(guestID)]
        ).map(Self.reservation(from:))
    }

    public func reservations(arrivingOn night: StayNight) async throws -> [(StaysReservationRecord, StaysGuest)] {
        try await withGuests(where: "r.check_in = ?", night)
    }

    public func reservations(leavingOn night: StayNight) async throws -> [(StaysReservationRecord, StaysGuest)] {
        try await withGuests(where: "r.check_out = ?", night)
    }

    private func withGuests(where condition: String, _ night: StayNight) async throws
        -> [(StaysReservationRecord, StaysGuest)]
    {
        try await database.query(
            """
            SELECT r.*, g.guest_id AS g_guest_id, g.account_id AS g_account_id, g.username, g.first_name, g.last_name,
                g.email, g.phone
            FROM stays_reservations r JOIN stays_guests g ON g.guest_id = r.guest_id
            WHERE \(condition) AND r.status = 'confirmed' ORDER BY r.room_type_id, r.id LIMIT 5000
            """, [.text(night.description)]
        ).map { row in
            (
                try Self.reservation(from: row),
                StaysGuest(
                    guestID: try row.int("g_guest_id"), accountID: try row.string("g_account_id"),
                    username: try row.string("username"), firstName: try row.string("first_name"),
                    lastName: try row.string("last_name"), email: try row.string("email"),
                    phone: try row.string("phone"))
            )
        }
    }

    public func pruneIdempotencyKeys(before cutoff: Date) async throws -> Int {
        try await database.query(
            "DELETE FROM stays_idempotency_keys WHERE created_at < ? RETURNING reservation_id", [SQLValue(cutoff)]
        ).count
    }

    static func marks(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    // MARK: Rows

    static func guest(from row: SQLRow) throws -> StaysGuest {
        StaysGuest(
            guestID: try row.int("guest_id"), accountID: try row.string("account_id"),
            username: try row.string("username"), firstName: try row.string("first_name"),
            lastName: try row.string("last_name"), email: try row.string("email"), phone: try row.string("phone"))
    }

    static func reservation(from row: SQLRow) throws -> StaysReservationRecord {
        guard let checkIn = StayNight(try row.string("check_in")),
            let checkOut = StayNight(try row.string("check_out")),
            let status = StaysReservationRecord.Status(rawValue: try row.string("status"))
        else { throw SQLRowError.unexpected("check_in", row.values["check_in"]) }
        return StaysReservationRecord(
            id: try row.int("id"), guestID: try row.int("guest_id"), accountID: try row.string("account_id"),
            roomTypeID: Int64(try row.int("room_type_id")), checkIn: checkIn, checkOut: checkOut,
            people: try row.int("people"), purpose: try row.string("purpose"),
            accommodationCents: try row.int("accommodation_cents"), cityTaxCents: try row.int("city_tax_cents"),
            vatIncludedCents: try row.int("vat_included_cents"), firstNightCents: try row.int("first_night_cents"),
            currency: try row.string("currency"), status: status, confirmationCode: try row.string("confirmation_code"),
            createdAt: try row.date("created_at"), cancelledAt: try row.optionalDate("cancelled_at"),
            refundedCents: try row.int("refunded_cents"), chargedCents: try row.int("charged_cents"),
            paymentPolicy: HotelSettings.PaymentPolicy(rawValue: try row.string("payment_policy")) ?? .payAtHotel,
            prepayment: try prepayment(from: row), paidAt: try row.optionalDate("paid_at"))
    }

    static func prepayment(from row: SQLRow) throws -> StaysPrepayment? {
        guard let orderID = try row.optionalString("order_id") else { return nil }
        return StaysPrepayment(
            orderID: orderID, reference: try row.optionalString("order_reference") ?? "",
            returnSecret: try row.optionalString("return_secret") ?? "",
            holdID: try row.optionalString("hold_id") ?? "",
            provider: try row.optionalString("payment_provider") ?? "",
            providerPaymentID: try row.optionalString("payment_id") ?? "",
            paymentRecordID: try row.optionalString("payment_record_id") ?? "",
            checkoutURL: try row.optionalString("checkout_url") ?? "",
            expiresAt: try row.optionalDate("pay_by") ?? Date(timeIntervalSince1970: 0))
    }
}
