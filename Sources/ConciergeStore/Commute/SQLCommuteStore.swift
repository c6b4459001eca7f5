public import ConciergeCore
public import ConciergeModels
public import Foundation

/// Commute data in SQL, on SQLite and PostgreSQL alike.
public struct SQLCommuteStore: CommuteStore {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    // MARK: Trips

    public func insertTrip(_ stored: StoredTrip, nextCheckAt: Date) async throws {
        let now = WireDate.date(from: stored.trip.createdAt) ?? nextCheckAt
        try await database.query(
            """
            INSERT INTO commute_trips (id, account_id, body, created_at, updated_at, next_check_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(stored.trip.id), .text(stored.accountID), .text(try Self.json(stored.trip)), SQLValue(now),
                SQLValue(now), SQLValue(nextCheckAt),
            ])
    }

    public func trip(id: String) async throws -> StoredTrip? {
        try await database.query("SELECT account_id, body FROM commute_trips WHERE id = ?", [.text(id)])
            .first.map(Self.trip(from:))
    }

    public func trips(accountID: String) async throws -> [StoredTrip] {
        try await database.query(
            "SELECT account_id, body FROM commute_trips WHERE account_id = ? ORDER BY created_at, id",
            [.text(accountID)]
        ).map(Self.trip(from:))
    }

    public func updateTrip(_ stored: StoredTrip, nextCheckAt: Date) async throws {
        try await database.query(
            "UPDATE commute_trips SET body = ?, updated_at = ?, next_check_at = ? WHERE id = ? AND account_id = ?",
            [
                .text(try Self.json(stored.trip)), SQLValue(nextCheckAt), SQLValue(nextCheckAt),
                .text(stored.trip.id), .text(stored.accountID),
            ])
    }

    public func deleteTrip(id: String, accountID: String) async throws -> Bool {
        try await database.transaction { db in
            let deleted = try await db.query(
                "DELETE FROM commute_trips WHERE id = ? AND account_id = ? RETURNING id", [.text(id), .text(accountID)])
            guard !deleted.isEmpty else { return false }
            try await db.query("DELETE FROM commute_observations WHERE trip_id = ?", [.text(id)])
            try await db.query("DELETE FROM commute_occurrences WHERE trip_id = ?", [.text(id)])
            try await db.query("DELETE FROM commute_live_activities WHERE trip_id = ?", [.text(id)])
            return true
        }
    }

    // MARK: Observations

    public func insertObservation(_ observation: CommuteObservation) async throws {
        guard let departed = WireDate.date(from: observation.departedAt),
            let arrived = WireDate.date(from: observation.arrivedAt),
            let created = WireDate.date(from: observation.createdAt)
        else { throw ConciergeError(.invalidInput, code: "invalid_request", message: "Unreadable observation times.") }
        try await database.query(
            """
            INSERT INTO commute_observations (id, trip_id, departed_at, arrived_at, expected_seconds, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(observation.id), .text(observation.tripId), SQLValue(departed), SQLValue(arrived),
                SQLValue(Int((observation.expectedMinutes * 60).rounded())), SQLValue(created),
            ])
    }

    public func observations(tripID: String, limit: Int) async throws -> [CommuteObservation] {
        try await database.query(
            "SELECT * FROM commute_observations WHERE trip_id = ? ORDER BY departed_at DESC, id LIMIT ?",
            [.text(tripID), SQLValue(limit)]
        ).map { row in
            let departed = try row.date("departed_at")
            let arrived = try row.date("arrived_at")
            return CommuteObservation(
                id: try row.string("id"), tripId: try row.string("trip_id"),
                departedAt: WireDate.string(from: departed),
                arrivedAt: WireDate.string(from: arrived),
                travelMinutes: (arrived.timeIntervalSince(departed) / 6).rounded() / 10,
                expectedMinutes: (Double(try row.int("expected_seconds")) / 6).rounded() / 10,
                createdAt: WireDate.string(from: try row.date("created_at")))
        }
    }

    // MARK: Devices, contacts, notices

    @discardableResult
    public func upsertDevice(accountID: String, sessionID: String?, device: CommuteDevice) async throws -> Bool {
        // A token belongs to one device and one account. Registering it again makes a
        // deactivated one active; another account takes it over only once its holder is gone:
        // deleted, or signed out of the session that registered the device (of every session,
        // for a device registered without one) — one conditional write, so two accounts racing
        // for a token cannot both win.
        let now = WireDate.date(from: device.createdAt) ?? Date(timeIntervalSince1970: 0)
        return
            !(try await database.query(
                """
                INSERT INTO commute_devices (token, account_id, platform, environment, created_at, session_id)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (token) DO UPDATE SET account_id = excluded.account_id, platform = excluded.platform,
                    environment = excluded.environment, session_id = excluded.session_id,
                    deactivated_at = NULL, deactivation_reason = NULL
                WHERE commute_devices.account_id = excluded.account_id
                    OR NOT EXISTS (
                        SELECT 1 FROM accounts JOIN sessions ON sessions.account_id = accounts.id
                        WHERE accounts.id = commute_devices.account_id AND accounts.deleted_at IS NULL
                            AND (commute_devices.session_id IS NULL OR sessions.id = commute_devices.session_id)
                            AND sessions.revoked_at IS NULL AND sessions.expires_at > ?)
                RETURNING token
                """,
                [
                    .text(device.token), .text(accountID), .text(device.platform), .text(device.environment),
                    SQLValue(now), SQLValue(sessionID), SQLValue(now),
                ]
            ).isEmpty)
    }

    public func deleteDevice(accountID: String, token: String) async throws -> Bool {
        !(try await database.query(
            "DELETE FROM commute_devices WHERE token = ? AND account_id = ? RETURNING token",
            [.text(token), .text(accountID)]
        ).isEmpty)
    }

    /// The account's verified email and phone, and the devices its notices go to: not one
    /// whose registering session has ended (signed out on that phone).
    public func contacts(accountID: String, at now: Date) async throws -> CommuteContacts {
        let credentials = try await database.query(
            """
            SELECT kind, identifier FROM account_credentials
            WHERE account_id = ? AND kind IN ('email', 'phone') AND verified_at IS NOT NULL ORDER BY created_at
            """, [.text(accountID)])
        let devices = try await database.query(
            """
            SELECT token FROM commute_devices WHERE account_id = ? AND deactivated_at IS NULL
                AND (session_id IS NULL OR EXISTS (
                    SELECT 1 FROM sessions WHERE sessions.id = commute_devices.session_id
                        AND sessions.revoked_at IS NULL AND sessions.expires_at > ?))
            ORDER BY created_at, token
            """, [.text(accountID), SQLValue(now)])
        return CommuteContacts(
            email: try credentials.first { try $0.string("kind") == "email" }?.string("identifier"),
            phone: try credentials.first { try $0.string("kind") == "phone" }?.string("identifier"),
            deviceTokens: try devices.map { try $0.string("token") })
    }

    public func notifications(accountID: String, limit: Int) async throws -> [CommuteNotification] {
        // Newest first; notices of one tick in the order they happen (an activity's end, then
        // soon, moved, now, then the activity's update showing them).
        try await database.query(
            """
            SELECT * FROM commute_notifications WHERE account_id = ?
            ORDER BY sent_at DESC,
                CASE kind WHEN 'live_activity_update' THEN 0 WHEN 'leave_now' THEN 1
                    WHEN 'leave_time_changed' THEN 2 WHEN 'live_activity_end' THEN 4 ELSE 3 END, id
            LIMIT ?
            """,
            [.text(accountID), SQLValue(limit)]
        ).map { row in
            CommuteNotification(
                id: try row.string("id"), tripId: try row.string("trip_id"), kind: try row.string("kind"),
                title: try row.string("title"), body: try row.string("body"),
                leaveAt: WireDate.string(from: try row.date("leave_at")),
                channels: try row.string("channels").split(separator: ",").map(String.init),
                sentAt: WireDate.string(from: try row.date("sent_at")))
        }
    }

    public func recordNotice(_ notice: CommuteNotice, at date: Date) async throws -> Bool {
        try await database.transaction { db in try await Self.insert(notice, in: db, at: date) }
    }

    /// The notice and its outbox messages; false (nothing written) when its dedupe key exists.
    static func insert(_ notice: CommuteNotice, in db: any SQLExecutor, at date: Date) async throws -> Bool {
        let inserted = try await db.query(
            """
            INSERT INTO commute_notifications
                (id, account_id, trip_id, dedupe_key, kind, title, body, leave_at, channels, sent_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (dedupe_key) DO NOTHING
            RETURNING id
            """,
            [
                .text(notice.id), .text(notice.accountID), .text(notice.notification.tripId),
                .text(notice.dedupeKey), .text(notice.notification.kind), .text(notice.notification.title),
                .text(notice.notification.body),
                SQLValue(WireDate.date(from: notice.notification.leaveAt) ?? date),
                .text(notice.notification.channels.joined(separator: ",")), SQLValue(date),
            ])
        guard !inserted.isEmpty else { return false }
        for message in notice.messages {
            try await OutboxWriter.enqueue(message, in: db, at: date)
        }
        return true
    }

    /// The live account that signs in with an ID token of `issuer subject`, if any.
    public func accountID(oidcCredential identifier: String) async throws -> String? {
        try await database.query(
            """
            SELECT c.account_id FROM account_credentials c JOIN accounts a ON a.id = c.account_id
            WHERE c.kind = 'oidc' AND c.identifier = ? AND a.deleted_at IS NULL
            """, [.text(identifier)]
        ).first?.string("account_id")
    }

    // MARK: Scheduler

    public func acquireLease(_ name: String, holder: String, now: Date, until: Date) async throws -> Bool {
        // Insert, or take over a lease that is ours or has run out; one statement, so two
        // instances racing for it cannot both win.
        let rows = try await database.query(
            """
            INSERT INTO commute_leases (name, holder, expires_at) VALUES (?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
            WHERE commute_leases.holder = excluded.holder OR commute_leases.expires_at <= ?
            RETURNING holder
            """, [.text(name), .text(holder), SQLValue(until), SQLValue(now)])
        return !rows.isEmpty
    }

    /// Trips due a check, never a deleted account's (its erasure deletes them in the same
    /// transaction; this also holds for a trip a racing request wrote after).
    public func dueTrips(now: Date, limit: Int) async throws -> [StoredTrip] {
        try await database.query(
            """
            SELECT account_id, body FROM commute_trips
            WHERE next_check_at IS NOT NULL AND next_check_at <= ?
                AND NOT EXISTS (
                    SELECT 1 FROM accounts WHERE accounts.id = commute_trips.account_id AND accounts.deleted_at IS NOT NULL)
            ORDER BY next_check_at LIMIT ?
            """, [SQLValue(now), SQLValue(limit)]
        ).map(Self.trip(from:))
    }

    public func setNextCheck(tripID: String, at date: Date?) async throws {
        try await database.query(
            "UPDATE commute_trips SET next_check_at = ? WHERE id = ?", [SQLValue(date), .text(tripID)])
    }

    public func occurrence(tripID: String, day: String) async throws -> OccurrenceState? {
        try await database.query(
            "SELECT * FROM commute_occurrences WHERE trip_id = ? AND day = ?", [.text(tripID), .text(day)]
        ).first.map { row in
            OccurrenceState(
                tripID: tripID, day: day, arriveBy: try row.date("arrive_by"), leaveAt: try row.date("leave_at"),
                announcedLeaveAt: try row.optionalDate("announced_leave_at"),
                soonSentAt: try row.optionalDate("soon_sent_at"), nowSentAt: try row.optionalDate("now_sent_at"))
        }
    }

    public func saveOccurrence(_ state: OccurrenceState) async throws {
        try await database.query(
            """
            INSERT INTO commute_occurrences
                (trip_id, day, arrive_by, leave_at, announced_leave_at, soon_sent_at, now_sent_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (trip_id, day) DO UPDATE SET arrive_by = excluded.arrive_by, leave_at = excluded.leave_at,
                announced_leave_at = excluded.announced_leave_at, soon_sent_at = excluded.soon_sent_at,
                now_sent_at = excluded.now_sent_at
            """,
            [
                .text(state.tripID), .text(state.day), SQLValue(state.arriveBy), SQLValue(state.leaveAt),
                SQLValue(state.announcedLeaveAt), SQLValue(state.soonSentAt), SQLValue(state.nowSentAt),
            ])
    }

    // MARK: Encoding

    private static func json(_ trip: CommuteTrip) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(trip), as: UTF8.self)
    }

    private static func trip(from row: SQLRow) throws -> StoredTrip {
        let trip = try JSONDecoder().decode(CommuteTrip.self, from: Data(try row.string("body").utf8))
        return StoredTrip(accountID: try row.string("account_id"), trip: trip)
    }
}

extension SQLCommuteStore: PushDeviceDirectory {
    /// A device's, or a Live Activity's (an ended one too: its end event is sent after it ends).
    public func pushEnvironment(ofDevice token: String) async throws -> String? {
        try await database.query(
            """
            SELECT environment FROM commute_devices WHERE token = ? AND deactivated_at IS NULL
            UNION ALL SELECT environment FROM commute_live_activities WHERE token = ?
            """, [.text(token), .text(token)]
        ).first?.string("environment")
    }

    public func deactivateDevice(token: String, reason: String, at date: Date) async throws {
        try await database.query(
            """
            UPDATE commute_devices SET deactivated_at = ?, deactivation_reason = ?
            WHERE token = ? AND deactivated_at IS NULL
            """, [SQLValue(date), .text(reason.isEmpty ? "rejected" : reason), .text(token)])
        // A Live Activity token APNs rejects is forgotten: the activity is gone.
        try await database.query("DELETE FROM commute_live_activities WHERE token = ?", [.text(token)])
    }
}
