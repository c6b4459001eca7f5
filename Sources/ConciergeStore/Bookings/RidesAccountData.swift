import Foundation

/// Rides' part of a person: the rides profile (`customers`, keyed by the account id) and its
/// bookings with their history.
struct RidesAccountData: AccountDataOwner {
    let module = "rides"

    func addresses(accountID: String, in db: any SQLExecutor) async throws -> [String] {
        try await db.query("SELECT phone, email FROM customers WHERE id = ?", [.text(accountID)]).flatMap {
            [try $0.string("phone"), try $0.optionalString("email")].compactMap { $0 }
        }
    }

    func erase(accountID: String, at date: Date, in db: any SQLExecutor) async throws {
        // The rides profile stays as the row bookings reference, with nothing personal in it:
        // the phone column is NOT NULL UNIQUE, so it holds a placeholder naming no one.
        try await db.query(
            "UPDATE customers SET phone = ?, name = NULL, email = NULL WHERE id = ?",
            [.text("erased:\(accountID)"), .text(accountID)])
        try await db.query("UPDATE bookings SET flight_number = NULL WHERE customer_id = ?", [.text(accountID)])
    }

    /// Both bookings lists end on `into`'s profile. When both accounts have a profile, the one
    /// with bookings wins (its phone, name and email), `into`'s when both or neither have some.
    func move(from: String, into: String, at date: Date, in db: any SQLExecutor) async throws {
        guard let moving = try await profile(from, in: db) else { return }
        let staying = try await profile(into, in: db)
        // The phone is unique: the moving profile lets go of it before `into` can take it.
        try await db.query("UPDATE customers SET phone = ? WHERE id = ?", [.text("joined:\(from)"), .text(from)])
        let contact = RidesProfileConflict.winner(into: staying, from: moving)
        if staying == nil {
            try await db.query(
                "INSERT INTO customers (id, phone, name, email, created_at) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(into), .text(contact.phone), SQLValue(contact.name), SQLValue(contact.email),
                    .integer(moving.createdAt),
                ])
        } else if contact == moving {
            try await db.query(
                "UPDATE customers SET phone = ?, name = ?, email = ? WHERE id = ?",
                [.text(contact.phone), SQLValue(contact.name), SQLValue(contact.email), .text(into)])
        }
        try await db.query("UPDATE bookings SET customer_id = ? WHERE customer_id = ?", [.text(into), .text(from)])
        try await db.query(
            "UPDATE booking_events SET actor = ? WHERE actor = ?",
            [.text("customer:\(into)"), .text("customer:\(from)")])
        try await db.query("DELETE FROM customers WHERE id = ?", [.text(from)])
    }

    func export(accountID: String, in db: any SQLExecutor) async throws -> [String: [PersonalDataRow]] {
        let account = [SQLValue.text(accountID)]
        return [
            "customers": try await PersonalDataRows.select("customers", where: "id = ?", account, in: db),
            "bookings": try await PersonalDataRows.select("bookings", where: "customer_id = ?", account, in: db),
            "booking_events": try await PersonalDataRows.select(
                "booking_events", where: "booking_id IN (SELECT id FROM bookings WHERE customer_id = ?)", account,
                in: db),
        ]
    }

    func sweep(_ retention: RetentionPeriods, now: Date, in db: any SQLExecutor) async throws {
        try await db.query(
            "UPDATE booking_events SET actor = 'customer' WHERE actor LIKE 'customer:%' AND at < ?",
            [SQLValue(now.addingTimeInterval(-retention.orderEvents))])
    }

    private func profile(_ id: String, in db: any SQLExecutor) async throws -> RidesProfileConflict.Profile? {
        guard let row = try await db.query("SELECT * FROM customers WHERE id = ?", [.text(id)]).first else {
            return nil
        }
        let bookings = try await db.query("SELECT COUNT(*) AS n FROM bookings WHERE customer_id = ?", [.text(id)])
        return RidesProfileConflict.Profile(
            phone: try row.string("phone"), name: try row.optionalString("name"),
            email: try row.optionalString("email"), createdAt: Int64(try row.int("created_at")),
            bookings: try bookings.first?.int("n") ?? 0)
    }
}

/// Joining two accounts that both have a rides profile: the one with bookings wins.
enum RidesProfileConflict {
    struct Profile: Equatable {
        let phone: String
        let name: String?
        let email: String?
        let createdAt: Int64
        let bookings: Int
    }

    /// Whose phone, name and email the joined profile keeps.
    static func winner(into: Profile?, from: Profile) -> Profile {
        guard let into else { return from }
        return into.bookings > 0 || from.bookings == 0 ? into : from
    }
}
