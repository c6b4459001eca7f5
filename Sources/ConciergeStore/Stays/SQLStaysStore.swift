public import ConciergeCore
public import Foundation

/// `StaysStore` in SQL. A night's count grows only `WHERE booked < rooms` (an upsert whose
/// update is conditional), inside the reservation's transaction: of two instances racing for
/// the last room, the second finds no row to update, throws `sold_out` and rolls back.
public struct SQLStaysStore: StaysStore {
    private let database: any SQLDatabase

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

    public func booked(nights: [StayNight]) async throws -> [Int64: Int] {
        guard let first = nights.first, let last = nights.last else { return [:] }
        let rows = try await database.query(
            """
            SELECT room_type_id, MAX(booked) AS most FROM stays_nights
            WHERE night >= ? AND night <= ? GROUP BY room_type_id
            """, [.text(first.description), .text(last.description)])
        var booked: [Int64: Int] = [:]
        for row in rows { booked[Int64(try row.int("room_type_id"))] = try row.int("most") }
        return booked
    }

    public func reserve(
        _ reservation: NewStaysReservation,
        email: @escaping @Sendable (StaysReservationRecord) throws -> OutboxMessage?
    ) async throws -> StaysReserveOutcome {
        do {
            return .created(
                try await database.transaction { db in
                    for night in reservation.range.nights {
                        // The first booking of a night inserts its row; later ones add one only
                        // while a room is left. No row back: the night is full.
                        let taken = try await db.query(
                            """
                            INSERT INTO stays_nights (room_type_id, night, booked) SELECT ?, ?, 1 WHERE 1 <= ?
                            ON CONFLICT (room_type_id, night) DO UPDATE SET booked = stays_nights.booked + 1
                            WHERE stays_nights.booked < ?
                            RETURNING booked
                            """,
                            [
                                .integer(reservation.roomTypeID), .text(night.description), SQLValue(reservation.rooms),
                                SQLValue(reservation.rooms),
                            ])
                        guard !taken.isEmpty else { throw ConciergeError.staysSoldOut }
                    }
                    let record = try await Self.insert(reservation, in: db)
                    if let key = reservation.idempotencyKey {
                        let claimed = try await db.query(
                            """
                            INSERT INTO stays_idempotency_keys (account_id, idempotency_key, reservation_id, created_at)
                            VALUES (?, ?, ?, ?) ON CONFLICT (account_id, idempotency_key) DO NOTHING
                            RETURNING reservation_id
                            """,
                            [
                                .text(reservation.guest.accountID), .text(key), SQLValue(record.id),
                                SQLValue(reservation.createdAt),
                            ])
                        // Made before: roll this one back and answer that one.
                        guard !claimed.isEmpty else { throw KeyUsedBefore() }
                    }
                    if let message = try email(record) {
                        try await OutboxWriter.enqueue(message, in: db, at: reservation.createdAt)
                    }
                    return record
                })
        } catch is KeyUsedBefore {
            guard let key = reservation.idempotencyKey,
                let earlier = try await self.reservation(accountID: reservation.guest.accountID, key: key)
            else { throw ConciergeError.staysSoldOut }
            return .replayed(earlier)
        } catch let error as ConciergeError where error == .staysSoldOut {
            // A repeat of a request that took the last room finds the night full: answer the
            // reservation it made.
            if let key = reservation.idempotencyKey,
                let earlier = try await self.reservation(accountID: reservation.guest.accountID, key: key)
            {
                return .replayed(earlier)
            }
            throw error
        }
    }

    private struct KeyUsedBefore: Error {}

    private func reservation(accountID: String, key: String) async throws -> StaysReservationRecord? {
        try await database.query(
            """
            SELECT r.* FROM stays_reservations r JOIN stays_idempotency_keys k ON k.reservation_id = r.id
            WHERE k.account_id = ? AND k.idempotency_key = ?
            """, [.text(accountID), .text(key)]
        ).first.map(Self.reservation(from:))
    }

    private static func insert(_ reservation: NewStaysReservation, in db: any SQLExecutor) async throws
        -> StaysReservationRecord
    {
        let quote = reservation.quote
        let rows = try await db.query(
            """
            INSERT INTO stays_reservations (guest_id, account_id, room_type_id, check_in, check_out, people, purpose,
                accommodation_cents, city_tax_cents, vat_included_cents, first_night_cents, currency, status,
                confirmation_code, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'confirmed', ?, ?)
            RETURNING *
            """,
            [
                SQLValue(reservation.guest.guestID), .text(reservation.guest.accountID),
                .integer(reservation.roomTypeID),
                .text(reservation.range.checkIn.description), .text(reservation.range.checkOut.description),
                SQLValue(reservation.people), .text(reservation.purpose), SQLValue(quote.accommodationCents),
                SQLValue(quote.cityTaxCents), SQLValue(quote.vatIncludedCents), SQLValue(quote.nightlyCents.first ?? 0),
                .text(reservation.currency), .text(reservation.confirmationCode), SQLValue(reservation.createdAt),
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

    public func bookedPerNight(from first: StayNight, to last: StayNight) async throws -> [StayNight: [Int64: Int]] {
        var booked: [StayNight: [Int64: Int]] = [:]
        for row in try await database.query(
            "SELECT room_type_id, night, booked FROM stays_nights WHERE night >= ? AND night <= ?",
            [.text(first.description), .text(last.description)])
        {
            guard let night = StayNight(try row.string("night")) else { continue }
            booked[night, default: [:]][Int64(try row.int("room_type_id"))] = try row.int("booked")
        }
        return booked
    }

    public func pruneIdempotencyKeys(before cutoff: Date) async throws -> Int {
        try await database.query(
            "DELETE FROM stays_idempotency_keys WHERE created_at < ? RETURNING reservation_id", [SQLValue(cutoff)]
        ).count
    }

    public func reservation(id: Int) async throws -> StaysReservationRecord? {
        try await database.query("SELECT * FROM stays_reservations WHERE id = ?", [SQLValue(id)]).first
            .map(Self.reservation(from:))
    }

    public func cancel(
        id: Int, refundedCents: Int, chargedCents: Int, at: Date,
        email: @escaping @Sendable (StaysReservationRecord) throws -> OutboxMessage?
    ) async throws -> StaysReservationRecord? {
        try await database.transaction { db in
            guard
                let row = try await db.query(
                    """
                    UPDATE stays_reservations SET status = 'cancelled', cancelled_at = ?, refunded_cents = ?,
                        charged_cents = ?
                    WHERE id = ? AND status = 'confirmed' RETURNING *
                    """, [SQLValue(at), SQLValue(refundedCents), SQLValue(chargedCents), SQLValue(id)]
                ).first
            else { return nil }
            let record = try Self.reservation(from: row)
            try await db.query(
                """
                UPDATE stays_nights SET booked = booked - 1
                WHERE room_type_id = ? AND night >= ? AND night < ? AND booked > 0
                """,
                [.integer(record.roomTypeID), .text(record.checkIn.description), .text(record.checkOut.description)])
            if let message = try email(record) {
                try await OutboxWriter.enqueue(message, in: db, at: at)
            }
            return record
        }
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
            refundedCents: try row.int("refunded_cents"), chargedCents: try row.int("charged_cents"))
    }
}
