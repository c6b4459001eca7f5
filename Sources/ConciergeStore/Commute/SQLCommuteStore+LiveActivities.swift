public import ConciergeCore
public import Foundation

/// Live Activity tokens and the claim that makes each push once-only and throttled.
extension SQLCommuteStore {
    public func upsertLiveActivity(_ registration: LiveActivityRegistration) async throws {
        // A new token is a new activity (or the same one with a rotated token): nothing sent to
        // it yet, and running.
        try await database.query(
            """
            INSERT INTO commute_live_activities (trip_id, account_id, token, environment, created_at)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (trip_id) DO UPDATE SET account_id = excluded.account_id, token = excluded.token,
                environment = excluded.environment, created_at = excluded.created_at, sent_at = NULL,
                sent_day = NULL, sent_arrive_by = NULL, sent_state = NULL, ended_at = NULL
            """,
            [
                .text(registration.tripID), .text(registration.accountID), .text(registration.token),
                .text(registration.environment), SQLValue(registration.createdAt),
            ])
    }

    public func liveActivity(tripID: String) async throws -> LiveActivityRegistration? {
        try await database.query("SELECT * FROM commute_live_activities WHERE trip_id = ?", [.text(tripID)])
            .first.map { row in
                LiveActivityRegistration(
                    tripID: try row.string("trip_id"), accountID: try row.string("account_id"),
                    token: try row.string("token"), environment: try row.string("environment"),
                    createdAt: try row.date("created_at"), sentAt: try row.optionalDate("sent_at"),
                    sentDay: try row.optionalString("sent_day"), sentArriveBy: try row.optionalDate("sent_arrive_by"),
                    sentState: try row.optionalString("sent_state"), endedAt: try row.optionalDate("ended_at"))
            }
    }

    public func deleteLiveActivity(tripID: String) async throws -> Bool {
        !(try await database.query(
            "DELETE FROM commute_live_activities WHERE trip_id = ? RETURNING trip_id", [.text(tripID)]
        ).isEmpty)
    }

    public func recordLiveActivityPush(_ push: LiveActivityPush, notice: CommuteNotice, at date: Date) async throws
        -> Bool
    {
        try await database.transaction { db in
            // One statement decides: the token is still the one registered, the activity still
            // runs, and its last push is at least the throttle old. A second instance (or a
            // second check within the throttle) finds the row already moved on.
            let claimed = try await db.query(
                """
                UPDATE commute_live_activities
                SET sent_at = ?, sent_day = ?, sent_arrive_by = ?, sent_state = ?, ended_at = ?
                WHERE trip_id = ? AND token = ? AND ended_at IS NULL AND (sent_at IS NULL OR sent_at <= ?)
                RETURNING trip_id
                """,
                [
                    SQLValue(date), .text(push.day), SQLValue(push.arriveBy), .text(push.state),
                    SQLValue(push.ends ? date : nil), .text(push.tripID), .text(push.token),
                    SQLValue(date.addingTimeInterval(-push.throttleSeconds)),
                ])
            guard !claimed.isEmpty else { return false }
            return try await Self.insert(notice, in: db, at: date)
        }
    }
}
