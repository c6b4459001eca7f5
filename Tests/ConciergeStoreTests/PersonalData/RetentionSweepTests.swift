import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// Issue 26 item 8: what has outlived its period goes; what has not, and what is still to be
/// sent, stays.
@Suite struct RetentionSweepTests {
    static let now = PersonalDataFixture.now
    static let periods = RetentionPeriods(
        sentNotifications: 30 * RetentionPeriods.day, devOutbox: 7 * RetentionPeriods.day,
        orderEvents: 365 * RetentionPeriods.day)

    static func ms(daysAgo days: Double) -> Int64 { Int64((now.timeIntervalSince1970 - days * 86_400) * 1000) }

    @Test(arguments: TestEngine.all)
    func theSweepRemovesWhatOutlivedItsPeriod(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let (old, recent) = (Self.ms(daysAgo: 400), Self.ms(daysAgo: 1))
        try await database.query(
            """
            INSERT INTO notification_outbox (dedupe_key, channel, recipient, subject, body, status, attempts, next_attempt_at, created_at, sent_at)
            VALUES ('sent-old', 'email', 'a@example.com', 's', 'b', 'sent', 1, \(old), \(old), \(old)),
                   ('sent-new', 'email', 'a@example.com', 's', 'b', 'sent', 1, \(recent), \(recent), \(recent)),
                   ('failed-old', 'email', 'a@example.com', 's', 'b', 'failed', 9, \(old), \(old), NULL),
                   ('pending-old', 'email', 'a@example.com', 's', 'b', 'pending', 3, \(old), \(old), NULL)
            """)
        try await database.query(
            """
            INSERT INTO outbox_attachments (outbox_seq, position, filename, content_type, content_base64)
            VALUES ((SELECT seq FROM notification_outbox WHERE dedupe_key = 'sent-old'), 0, 't.png', 'image/png', 'x')
            """)
        try await database.query(
            "INSERT INTO outbox_messages (channel, recipient, body, created_at) VALUES ('sms', '+41', 'old', \(Self.ms(daysAgo: 8))), ('sms', '+41', 'new', \(recent))"
        )
        try await database.query(
            """
            INSERT INTO orders (id, vertical, account_id, reference, public_secret, amount_cents, currency, state, created_at, updated_at)
            VALUES ('ord_1', 'events', 'acc_1', 'R1', 's', 100, 'CHF', 'confirmed', \(old), \(old))
            """)
        try await database.query(
            """
            INSERT INTO order_events (order_id, at, type, actor, detail)
            VALUES ('ord_1', \(old), 'held', 'account:acc_1', '2 seats'), ('ord_1', \(recent), 'cancelled', 'account:acc_1', '')
            """)
        try await database.query(
            """
            INSERT INTO commute_notifications (id, account_id, trip_id, dedupe_key, kind, title, body, leave_at, channels, sent_at)
            VALUES ('n1', 'acc_1', 't', 'd1', 'leave_soon', 'x', 'y', \(old), 'push', \(Self.ms(daysAgo: 31))),
                   ('n2', 'acc_1', 't', 'd2', 'leave_soon', 'x', 'y', \(recent), 'push', \(recent))
            """)

        try await SQLRetentionSweeper(database: database, retention: Self.periods).sweep(now: Self.now)

        let outbox = try await database.query("SELECT dedupe_key FROM notification_outbox ORDER BY dedupe_key")
        #expect(try outbox.map { try $0.string("dedupe_key") } == ["pending-old", "sent-new"])
        #expect(try await database.query("SELECT * FROM outbox_attachments").isEmpty)
        let dev = try await database.query("SELECT body FROM outbox_messages")
        #expect(try dev.map { try $0.string("body") } == ["new"])
        let events = try await database.query("SELECT actor, detail FROM order_events ORDER BY at")
        #expect(try events.map { try $0.string("actor") } == ["account", "account:acc_1"])
        #expect(try events.first?.string("detail") == "2 seats")
        let notices = try await database.query("SELECT id FROM commute_notifications")
        #expect(try notices.map { try $0.string("id") } == ["n2"])
        try await database.close()
    }
}
