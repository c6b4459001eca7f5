import ConciergeCore
import ConciergeProviders
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// Notification delivery sends, then marks sent: a kill -9 between the two sends again after the
/// restart. The dev outbox, in the same database, keeps each notification's delivery key once,
/// so the redelivered message is there once.
@Suite struct NotificationRedeliveryTests {
    /// The outbox as the worker of a process killed right after the send sees it: the claim is
    /// made, the message goes out, and nothing after that is written.
    struct KilledAfterSending: NotificationOutbox {
        let outbox: SQLNotificationQueue

        func claimDue(now: Date, leaseUntil: Date, limit: Int) async throws -> [QueuedNotification] {
            try await outbox.claimDue(now: now, leaseUntil: leaseUntil, limit: limit)
        }

        func markSent(id: Int64, at: Date) async throws {}

        func markFailed(id: Int64, attempts: Int, retryAt: Date?, error: String) async throws {}
    }

    @Test(arguments: TestEngine.all)
    func aNotificationRedeliveredAfterACrashIsInTheDevOutboxOnce(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let clock = ManualTimeSource()
        let bookings = SQLNotificationQueue(database: database)
        let messages = SQLOutboxStore(database: database)
        let devOutbox = DevOutbox(store: messages, clock: clock, logger: TestApp.quiet)
        try await Self.queue("bkg_1:confirmation", "email", "anna@example.ch", database: database, clock: clock)
        try await Self.queue("bkg_2:confirmation", "sms", "+41791234567", database: database, clock: clock)

        let killed = NotificationDeliverer(
            outbox: KilledAfterSending(outbox: bookings), email: devOutbox, sms: devOutbox, clock: clock)
        #expect(try await killed.deliverDue() == 2)
        #expect(try await messages.messages().count == 2)

        // Restarted: nothing is due while the dead worker's lease holds; afterwards both are
        // claimed and sent again, and the dev outbox keeps neither a second time.
        let restarted = NotificationDeliverer(outbox: bookings, email: devOutbox, sms: devOutbox, clock: clock)
        #expect(restarted.lease == NotificationDeliverer.repeatSafeLease)
        #expect(try await restarted.deliverDue() == 0)
        clock.advance(by: NotificationDeliverer.repeatSafeLease + 1)
        #expect(try await restarted.deliverDue() == 2)
        let kept = try await messages.messages()
        #expect(kept.map(\.to) == ["anna@example.ch", "+41791234567"])
        #expect(kept.map(\.channel) == [.email, .sms])
        #expect(try await messages.messages(to: "anna@example.ch").count == 1)

        // Marked sent this time: never delivered again.
        clock.advance(by: 3_600)
        #expect(try await restarted.deliverDue() == 0)
        #expect(try await messages.messages().count == 2)
        try await database.close()
    }

    /// A sender that never finishes: the worker using it is as good as killed mid-send.
    final class HangingSender: EmailSender, SMSSender, @unchecked Sendable {
        let started = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()

        func sendEmail(to address: String, subject: String, textBody: String) async throws {
            started.continuation.yield()
            for await _ in release.stream { return }
        }

        func sendSMS(to phone: PhoneNumber, body: String) async throws {
            started.continuation.yield()
            for await _ in release.stream { return }
        }
    }

    @Test(arguments: TestEngine.all)
    func aWorkerKilledMidSendStrandsOnlyTheMessageItWasSending(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let clock = ManualTimeSource()
        let bookings = SQLNotificationQueue(database: database)
        let messages = SQLOutboxStore(database: database)
        let devOutbox = DevOutbox(store: messages, clock: clock, logger: TestApp.quiet)
        for number in 1...3 {
            try await Self.queue(
                "bkg_\(number):confirmation", "email", "guest\(number)@example.ch", database: database, clock: clock)
        }

        let hanging = HangingSender()
        let dead = NotificationDeliverer(outbox: bookings, email: hanging, sms: hanging, clock: clock)
        #expect(dead.lease == NotificationDeliverer.sendLease)
        let killed = Task { try await dead.deliverDue() }
        var started = hanging.started.stream.makeAsyncIterator()
        _ = await started.next()

        // The other two were never claimed: the next worker sends them at once.
        let restarted = NotificationDeliverer(outbox: bookings, email: devOutbox, sms: devOutbox, clock: clock)
        #expect(try await restarted.deliverDue() == 2)
        #expect(try await messages.messages().map(\.to) == ["guest2@example.ch", "guest3@example.ch"])
        // The one being sent waits out one send's lease, not minutes.
        clock.advance(by: NotificationDeliverer.sendLease + 1)
        #expect(try await restarted.deliverDue() == 1)
        #expect(try await messages.messages().count == 3)

        hanging.release.continuation.finish()
        _ = try await killed.value
        try await database.close()
    }

    static func queue(
        _ key: String, _ channel: String, _ recipient: String, database: any SQLDatabase, clock: ManualTimeSource
    ) async throws {
        try await database.query(
            """
            INSERT INTO notification_outbox
                (dedupe_key, channel, recipient, subject, body, status, attempts, next_attempt_at, created_at)
            VALUES (?, ?, ?, 'Your ride VRM-100001 is confirmed', 'Your ride is confirmed.', 'pending', 0, ?, ?)
            """, [.text(key), .text(channel), .text(recipient), SQLValue(clock.now), SQLValue(clock.now)])
    }

    @Test(arguments: TestEngine.all)
    func messagesWithoutADeliveryKeyAreAllKept(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let clock = ManualTimeSource()
        let messages = SQLOutboxStore(database: database)
        let devOutbox = DevOutbox(store: messages, clock: clock, logger: TestApp.quiet)
        let phone = PhoneNumber(trustedE164: "+41791234567")
        // Two sign-in codes with the same text, and a booking text sent twice under one key.
        try await devOutbox.sendSMS(to: phone, body: "Your Concierge code is 123456.")
        try await devOutbox.sendSMS(to: phone, body: "Your Concierge code is 123456.")
        try await devOutbox.sendSMS(to: phone, body: "Ride confirmed.", deliveryKey: "bkg_3:confirmation")
        try await devOutbox.sendSMS(to: phone, body: "Ride confirmed.", deliveryKey: "bkg_3:confirmation")
        try await devOutbox.sendEmail(
            to: "anna@example.ch", subject: "Confirmed", textBody: "Ride confirmed.", deliveryKey: "bkg_4:confirmation")
        try await devOutbox.sendEmail(
            to: "anna@example.ch", subject: "Confirmed", textBody: "Ride confirmed.", deliveryKey: "bkg_4:confirmation")
        #expect(
            try await messages.messages().map(\.body) == [
                "Your Concierge code is 123456.", "Your Concierge code is 123456.", "Ride confirmed.",
                "Ride confirmed.",
            ])
        #expect(try await messages.messages().map(\.channel) == [.sms, .sms, .sms, .email])
        try await database.close()
    }
}
