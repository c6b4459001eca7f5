import Foundation

/// Events' part of a person: the bookings with their contact email, tickets and check-ins.
struct EventsAccountData: AccountDataOwner {
    let module = "events"

    func addresses(accountID: String, in db: any SQLExecutor) async throws -> [String] {
        try await db.query(
            "SELECT DISTINCT contact_email FROM events_bookings WHERE account_id = ?", [.text(accountID)]
        ).map { try $0.string("contact_email") }
    }

    /// Bookings and tickets stay for accounting and the door; the contact email goes.
    func erase(accountID: String, at date: Date, in db: any SQLExecutor) async throws {
        try await db.query("UPDATE events_bookings SET contact_email = '' WHERE account_id = ?", [.text(accountID)])
    }

    func move(from: String, into: String, at date: Date, in db: any SQLExecutor) async throws {
        try await db.query(
            "UPDATE events_bookings SET account_id = ? WHERE account_id = ?", [.text(into), .text(from)])
    }

    func export(accountID: String, in db: any SQLExecutor) async throws -> [String: [PersonalDataRow]] {
        let account = [SQLValue.text(accountID)]
        let theirs = "order_id IN (SELECT order_id FROM events_bookings WHERE account_id = ?)"
        return [
            "events_bookings": try await PersonalDataRows.select(
                "events_bookings", where: "account_id = ?", account, in: db),
            "events_tickets": try await PersonalDataRows.select("events_tickets", where: theirs, account, in: db),
            "events_checkins": try await PersonalDataRows.select("events_checkins", where: theirs, account, in: db),
        ]
    }
}
