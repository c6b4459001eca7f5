import Foundation

/// Stays' part of a person: the guest profile (names, email, phone, user name) and the
/// reservations with their purposes.
struct StaysAccountData: AccountDataOwner {
    let module = "stays"

    func addresses(accountID: String, in db: any SQLExecutor) async throws -> [String] {
        try await db.query("SELECT email, phone FROM stays_guests WHERE account_id = ?", [.text(accountID)]).flatMap {
            [try $0.string("email"), try $0.string("phone")]
        }
    }

    /// Reservations stay for the hotel's books, without the purpose; the guest row stays as
    /// the one they reference, blank (its columns are NOT NULL, the user name a placeholder).
    func erase(accountID: String, at date: Date, in db: any SQLExecutor) async throws {
        try await db.query("UPDATE stays_reservations SET purpose = '' WHERE account_id = ?", [.text(accountID)])
        try await db.query(
            """
            UPDATE stays_guests SET username = 'erased:' || CAST(guest_id AS TEXT), first_name = '', last_name = '',
                email = '', phone = ''
            WHERE account_id = ?
            """, [.text(accountID)])
        try await db.query("DELETE FROM stays_idempotency_keys WHERE account_id = ?", [.text(accountID)])
    }

    /// `into`'s guest profile wins when both have one; `from`'s reservations join it.
    func move(from: String, into: String, at date: Date, in db: any SQLExecutor) async throws {
        try await db.query("DELETE FROM stays_idempotency_keys WHERE account_id = ?", [.text(from)])
        let staying = try await db.query("SELECT guest_id FROM stays_guests WHERE account_id = ?", [.text(into)]).first
        guard let staying else {
            try await db.query(
                "UPDATE stays_guests SET account_id = ? WHERE account_id = ?", [.text(into), .text(from)])
            try await db.query(
                "UPDATE stays_reservations SET account_id = ? WHERE account_id = ?", [.text(into), .text(from)])
            return
        }
        try await db.query(
            "UPDATE stays_reservations SET account_id = ?, guest_id = ? WHERE account_id = ?",
            [.text(into), .integer(Int64(try staying.int("guest_id"))), .text(from)])
        try await db.query("DELETE FROM stays_guests WHERE account_id = ?", [.text(from)])
    }

    func export(accountID: String, in db: any SQLExecutor) async throws -> [String: [PersonalDataRow]] {
        let account = [SQLValue.text(accountID)]
        return [
            "stays_guests": try await PersonalDataRows.select("stays_guests", where: "account_id = ?", account, in: db),
            "stays_reservations": try await PersonalDataRows.select(
                "stays_reservations", where: "account_id = ?", account, in: db),
        ]
    }
}
