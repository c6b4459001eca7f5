import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// The notification outbox on both engines: enqueue inside a vertical's transaction (a rollback
/// leaves nothing), dedupe keys, HTML/attachments/push round trips, and the queue's claim, lease,
/// markSent and markFailed.
@Suite struct OutboxStoreTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])

    struct Rollback: Error {}

    static func count(_ database: any SQLDatabase, _ table: String) async throws -> Int {
        try await database.query("SELECT COUNT(*) AS n FROM \(table)").first?.int("n") ?? -1
    }

    @Test(arguments: TestEngine.all)
    func aMessageQueuedInATransactionThatRollsBackIsNotThere(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let writer = OutboxWriter(clock: ManualTimeSource())
        let ticket = OutboxMessage.email(
            dedupeKey: "ord_1:tickets", to: "anna@example.ch", subject: "Your tickets", text: "Seat A12",
            html: "<p>Seat A12</p>",
            attachments: [EmailAttachment(filename: "ticket.png", contentType: "image/png", content: Self.png)])
        await #expect(throws: Rollback.self) {
            try await database.transaction { db in
                #expect(try await writer.enqueue(ticket, in: db))
                throw Rollback()
            }
        }
        #expect(try await Self.count(database, "notification_outbox") == 0)
        #expect(try await Self.count(database, "outbox_attachments") == 0)

        // Committed, it is there with its attachment.
        #expect(try await database.transaction { db in try await writer.enqueue(ticket, in: db) })
        #expect(try await Self.count(database, "notification_outbox") == 1)
        #expect(try await Self.count(database, "outbox_attachments") == 1)
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func aDedupeKeyQueuesOnce(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let clock = ManualTimeSource()
        let writer = OutboxWriter(clock: clock)
        let first = OutboxMessage.sms(
            dedupeKey: "bkg_1:confirmation", to: PhoneNumber(trustedE164: "+41791234567"), text: "Confirmed.")
        #expect(try await writer.enqueue(first, in: database))
        let replay = OutboxMessage.email(
            dedupeKey: "bkg_1:confirmation", to: "anna@example.ch", subject: "Again", text: "Again",
            attachments: [EmailAttachment(filename: "x.png", contentType: "image/png", content: Self.png)])
        #expect(try await writer.enqueue(replay, in: database) == false)
        #expect(try await Self.count(database, "notification_outbox") == 1)
        #expect(try await Self.count(database, "outbox_attachments") == 0)
        let queue = SQLNotificationQueue(database: database)
        let claimed = try await queue.claimDue(now: clock.now, leaseUntil: clock.now.addingTimeInterval(60), limit: 10)
        #expect(claimed.map(\.notification) == [first])
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func htmlAttachmentsAndPushDataComeBackAsQueued(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let clock = ManualTimeSource()
        let writer = OutboxWriter(clock: clock)
        let email = OutboxMessage.email(
            dedupeKey: "ord_1:tickets", to: "anna@example.ch", subject: "Your tickets", text: "Seats A12, A13",
            html: "<p>Seats <b>A12</b>, A13</p>",
            attachments: [
                EmailAttachment(filename: "ticket-A12.png", contentType: "image/png", content: Self.png),
                EmailAttachment(filename: "ticket-A13.png", contentType: "image/png", content: Data([1, 2, 3])),
            ])
        let push = OutboxMessage.push(
            dedupeKey: "ord_1:push", deviceToken: "a1b2c3", title: "Doors open", body: "Show 1 starts at 20:00",
            data: ["orderID": "ord_1", "screen": "tickets"])
        try await database.transaction { db in
            try await writer.enqueue(email, in: db)
            try await writer.enqueue(push, in: db)
        }
        let claimed = try await SQLNotificationQueue(database: database).claimDue(
            now: clock.now, leaseUntil: clock.now.addingTimeInterval(60), limit: 10)
        #expect(claimed.map(\.notification) == [email, push])
        #expect(claimed.map(\.attempts) == [0, 0])
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func claimsAreLeasedAndMarkedSentOrFailed(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let clock = ManualTimeSource()
        let writer = OutboxWriter(clock: clock)
        let queue = SQLNotificationQueue(database: database)
        for key in ["a", "b", "c"] {
            try await writer.enqueue(
                .email(dedupeKey: key, to: "\(key)@example.ch", subject: "S", text: "T"), in: database)
        }
        func claim(_ limit: Int = 10) async throws -> [QueuedNotification] {
            try await queue.claimDue(now: clock.now, leaseUntil: clock.now.addingTimeInterval(60), limit: limit)
        }
        let first = try await claim(1)
        #expect(first.map(\.notification.dedupeKey) == ["a"])
        // Leased: another worker gets the other two, not "a".
        let rest = try await claim()
        #expect(rest.map(\.notification.dedupeKey) == ["b", "c"])
        #expect(try await claim().isEmpty)

        try await queue.markSent(id: first[0].id, at: clock.now)
        try await queue.markFailed(
            id: rest[0].id, attempts: 1, retryAt: clock.now.addingTimeInterval(10), error: "421 try later")
        try await queue.markFailed(id: rest[1].id, attempts: 1, retryAt: nil, error: "550 no such user")
        // "b" is due again after its pause; "a" is sent and "c" failed for good: neither returns.
        clock.advance(by: 10)
        let retried = try await claim()
        #expect(retried.map(\.notification.dedupeKey) == ["b"])
        #expect(retried.map(\.attempts) == [1])
        // A worker that died holding "b" leaves it claimable once its lease is over.
        clock.advance(by: 61)
        #expect(try await claim().map(\.notification.dedupeKey) == ["b"])
        clock.advance(by: 3_600)
        try await queue.markSent(id: retried[0].id, at: clock.now)
        #expect(try await claim().isEmpty)
        let failed = try await database.query(
            "SELECT status, last_error FROM notification_outbox WHERE dedupe_key = 'c'")
        #expect(try failed.first?.string("status") == "failed")
        #expect(try failed.first?.string("last_error") == "550 no such user")
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func theDevOutboxKeepsHtmlAttachmentNamesAndPushData(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let store = SQLOutboxStore(database: database)
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        try await store.append(
            DevOutboxMessage(
                channel: .email, to: "anna@example.ch", subject: "Your tickets", body: "Seat A12", createdAt: at,
                htmlBody: "<p>Seat A12</p>", attachmentNames: ["ticket-A12.png"]),
            deliveryKey: "ord_1:tickets")
        try await store.append(
            DevOutboxMessage(
                channel: .push, to: "a1b2c3", subject: "Doors open", body: "Show 1", createdAt: at,
                data: ["orderID": "ord_1"]),
            deliveryKey: "ord_1:push")
        let kept = try await store.messages()
        #expect(kept.map(\.channel) == [.email, .push])
        #expect(kept.first?.htmlBody == "<p>Seat A12</p>")
        #expect(kept.first?.attachmentNames == ["ticket-A12.png"])
        #expect(kept.last?.data == ["orderID": "ord_1"])
        #expect(kept.last?.subject == "Doors open")
        try await database.close()
    }
}
