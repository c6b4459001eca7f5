extension MigrationGroup {
    /// The commute vertical's tables, with their own version sequence.
    public static let commute = MigrationGroup(
        module: "commute",
        migrations: [
            CommuteMigrations.tripsAndSchedule, CommuteMigrations.deviceDeactivation, CommuteMigrations.liveActivities,
            CommuteMigrations.deviceSessions,
        ])
}

enum CommuteMigrations {
    static let tripsAndSchedule = Migration(
        version: 1, name: "commute trips, observations, devices, notices and the scheduler's state",
        statements: [
            // The trip is kept as its wire JSON (`body`); the columns are what queries need.
            // `next_check_at` is the scheduler's queue: NULL when notices are off.
            .portable(
                """
                CREATE TABLE commute_trips (
                    id TEXT PRIMARY KEY,
                    account_id TEXT NOT NULL,
                    body TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    next_check_at BIGINT
                )
                """),
            .portable("CREATE INDEX commute_trips_by_account ON commute_trips (account_id, created_at)"),
            .portable("CREATE INDEX commute_trips_by_next_check ON commute_trips (next_check_at)"),
            .portable(
                """
                CREATE TABLE commute_observations (
                    id TEXT PRIMARY KEY,
                    trip_id TEXT NOT NULL,
                    departed_at BIGINT NOT NULL,
                    arrived_at BIGINT NOT NULL,
                    expected_seconds BIGINT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """),
            .portable("CREATE INDEX commute_observations_by_trip ON commute_observations (trip_id, departed_at)"),
            .portable(
                """
                CREATE TABLE commute_devices (
                    token TEXT PRIMARY KEY,
                    account_id TEXT NOT NULL,
                    platform TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """),
            .portable("CREATE INDEX commute_devices_by_account ON commute_devices (account_id)"),
            .portable(
                """
                CREATE TABLE commute_occurrences (
                    trip_id TEXT NOT NULL,
                    day TEXT NOT NULL,
                    arrive_by BIGINT NOT NULL,
                    leave_at BIGINT NOT NULL,
                    announced_leave_at BIGINT,
                    soon_sent_at BIGINT,
                    now_sent_at BIGINT,
                    PRIMARY KEY (trip_id, day)
                )
                """),
            // The dedupe key is unique: a notice is written once, whoever tries twice.
            .portable(
                """
                CREATE TABLE commute_notifications (
                    id TEXT PRIMARY KEY,
                    account_id TEXT NOT NULL,
                    trip_id TEXT NOT NULL,
                    dedupe_key TEXT NOT NULL UNIQUE,
                    kind TEXT NOT NULL,
                    title TEXT NOT NULL,
                    body TEXT NOT NULL,
                    leave_at BIGINT NOT NULL,
                    channels TEXT NOT NULL,
                    sent_at BIGINT NOT NULL
                )
                """),
            .portable("CREATE INDEX commute_notifications_by_account ON commute_notifications (account_id, sent_at)"),
            .portable(
                """
                CREATE TABLE commute_leases (
                    name TEXT PRIMARY KEY,
                    holder TEXT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """),
        ])

    /// APNs said a token is gone (`Unregistered`, `BadDeviceToken`): the device is kept, marked,
    /// and gets no more notices until it is registered again.
    static let deviceDeactivation = Migration(
        version: 2, name: "commute devices can be deactivated",
        statements: [
            .portable("ALTER TABLE commute_devices ADD COLUMN deactivated_at BIGINT"),
            .portable("ALTER TABLE commute_devices ADD COLUMN deactivation_reason TEXT"),
        ])

    /// One Live Activity per trip (the last token the app sent wins), with what its last push
    /// showed: `sent_at` is the 30-second throttle, `sent_arrive_by` says when to end it. A row
    /// whose end was sent stays (its end may still be in the outbox, which looks the token up)
    /// until the app registers a new token or the trip goes.
    static let liveActivities = Migration(
        version: 3, name: "commute Live Activity push tokens",
        statements: [
            .portable(
                """
                CREATE TABLE commute_live_activities (
                    trip_id TEXT PRIMARY KEY,
                    account_id TEXT NOT NULL,
                    token TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    sent_at BIGINT,
                    sent_day TEXT,
                    sent_arrive_by BIGINT,
                    sent_state TEXT,
                    ended_at BIGINT
                )
                """),
            .portable("CREATE INDEX commute_live_activities_by_token ON commute_live_activities (token)"),
        ])

    /// The session a device was registered in: signing out of that session (not only of every
    /// one) releases the device to the next account and stops its notices (review 2026-11-27,
    /// finding 8). Empty for a device registered with an ID token, which has no session to end,
    /// and for devices registered before this migration. Expand-only: a nullable column.
    static let deviceSessions = Migration(
        version: 4, name: "commute devices remember the session that registered them",
        statements: [.portable("ALTER TABLE commute_devices ADD COLUMN session_id TEXT")])
}
