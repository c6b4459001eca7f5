import Foundation

/// Commute's part of a person: trips (home and work places), their observations and
/// occurrences, devices, live activities and the notices sent.
struct CommuteAccountData: AccountDataOwner {
    let module = "commute"

    private static let trips = "trip_id IN (SELECT id FROM commute_trips WHERE account_id = ?)"

    func addresses(accountID: String, in db: any SQLExecutor) async throws -> [String] {
        let devices = try await db.query("SELECT token FROM commute_devices WHERE account_id = ?", [.text(accountID)])
        let activities = try await db.query(
            "SELECT token FROM commute_live_activities WHERE account_id = ?", [.text(accountID)])
        return try (devices + activities).map { try $0.string("token") }
    }

    /// Nothing of commute is needed once the person is gone: every row goes.
    func erase(accountID: String, at date: Date, in db: any SQLExecutor) async throws {
        let account = [SQLValue.text(accountID)]
        try await db.query("DELETE FROM commute_observations WHERE \(Self.trips)", account)
        try await db.query("DELETE FROM commute_occurrences WHERE \(Self.trips)", account)
        try await db.query("DELETE FROM commute_live_activities WHERE account_id = ?", account)
        try await db.query("DELETE FROM commute_notifications WHERE account_id = ?", account)
        try await db.query("DELETE FROM commute_devices WHERE account_id = ?", account)
        try await db.query("DELETE FROM commute_trips WHERE account_id = ?", account)
    }

    /// Trips keep their ids, so observations and occurrences follow them.
    func move(from: String, into: String, at date: Date, in db: any SQLExecutor) async throws {
        for table in ["commute_trips", "commute_devices", "commute_live_activities", "commute_notifications"] {
            try await db.query("UPDATE \(table) SET account_id = ? WHERE account_id = ?", [.text(into), .text(from)])
        }
    }

    func export(accountID: String, in db: any SQLExecutor) async throws -> [String: [PersonalDataRow]] {
        let account = [SQLValue.text(accountID)]
        var part: [String: [PersonalDataRow]] = [:]
        for table in ["commute_trips", "commute_devices", "commute_live_activities", "commute_notifications"] {
            part[table] = try await PersonalDataRows.select(table, where: "account_id = ?", account, in: db)
        }
        for table in ["commute_observations", "commute_occurrences"] {
            part[table] = try await PersonalDataRows.select(table, where: Self.trips, account, in: db)
        }
        return part
    }

    func sweep(_ retention: RetentionPeriods, now: Date, in db: any SQLExecutor) async throws {
        try await db.query(
            "DELETE FROM commute_notifications WHERE sent_at < ?",
            [SQLValue(now.addingTimeInterval(-retention.sentNotifications))])
    }
}
