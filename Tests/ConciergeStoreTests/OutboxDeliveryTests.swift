import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// The worker over the SQL queue, on both engines: an HTML email with attachments reaches the
/// email sender whole, a push reaches the push sender with its data, and a push with no push
/// sender configured fails for good with a reason instead of retrying forever.
@Suite struct OutboxDeliveryTests {
    final class Recorder: EmailSender, SMSSender, PushSender, @unchecked Sendable {
        private let lock = NSLock()
        private var storedEmails: [EmailContent] = []
        private var storedPushes: [[String]] = []
        private var storedSMS: [String] = []

        var emails: [EmailContent] { lock.withLock { storedEmails } }
        var pushes: [[String]] { lock.withLock { storedPushes } }
        var sms: [String] { lock.withLock { storedSMS } }

        func sendEmail(to address: String, subject: String, textBody: String) async throws {
            lock.withLock { storedEmails.append(EmailContent(to: address, subject: subject, textBody: textBody)) }
        }

        func sendEmail(_ email: EmailContent, deliveryKey: String?) async throws {
            lock.withLock { storedEmails.append(email) }
        }

        func sendSMS(to phone: PhoneNumber, body: String) async throws {
            lock.withLock { storedSMS.append("\(phone.e164): \(body)") }
        }

        func sendPush(
            to deviceToken: String, title: String, body: String, data: [String: String], deliveryKey: String?
        ) async throws {
            lock.withLock {
                storedPushes.append([deviceToken, title, body, data.sorted { $0.key < $1.key }.description])
            }
        }
    }

    @Test(arguments: TestEngine.all)
    func everyChannelReachesItsSender(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let clock = ManualTimeSource()
        let writer = OutboxWriter(clock: clock)
        let qr = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
        let ticket = OutboxMessage.email(
            dedupeKey: "ord_1:tickets", to: "anna@example.ch", subject: "Your tickets", text: "Seat A12",
            html: "<p>Seat A12</p>",
            attachments: [EmailAttachment(filename: "ticket-A12.png", contentType: "image/png", content: qr)])
        try await database.transaction { db in
            try await writer.enqueue(ticket, in: db)
            try await writer.enqueue(
                .push(
                    dedupeKey: "ord_1:push", deviceToken: "a1b2c3", title: "Doors open", body: "20:00",
                    data: ["orderID": "ord_1"]), in: db)
            try await writer.enqueue(
                .sms(dedupeKey: "ord_1:sms", to: PhoneNumber(trustedE164: "+41791234567"), text: "See you"), in: db)
        }
        let recorder = Recorder()
        let deliverer = NotificationDeliverer(
            outbox: SQLNotificationQueue(database: database), email: recorder, sms: recorder, push: recorder,
            clock: clock)
        #expect(try await deliverer.deliverDue() == 3)
        #expect(
            recorder.emails == [
                EmailContent(
                    to: "anna@example.ch", subject: "Your tickets", textBody: "Seat A12", htmlBody: "<p>Seat A12</p>",
                    attachments: [EmailAttachment(filename: "ticket-A12.png", contentType: "image/png", content: qr)])
            ])
        #expect(recorder.pushes == [["a1b2c3", "Doors open", "20:00", #"[(key: "orderID", value: "ord_1")]"#]])
        #expect(recorder.sms == ["+41791234567: See you"])
        #expect(try await deliverer.deliverDue() == 0)
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func aPushWithoutAPushSenderFailsForGoodWithAReason(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let clock = ManualTimeSource()
        try await OutboxWriter(clock: clock).enqueue(
            .push(dedupeKey: "ord_2:push", deviceToken: "d4e5", title: "Hi", body: "There"), in: database)
        let recorder = Recorder()
        let deliverer = NotificationDeliverer(
            outbox: SQLNotificationQueue(database: database), email: recorder, sms: recorder, clock: clock)
        #expect(try await deliverer.deliverDue() == 0)
        clock.advance(by: 86_400)
        #expect(try await deliverer.deliverDue() == 0)
        let row = try await database.query("SELECT status, attempts, last_error FROM notification_outbox").first
        #expect(try row?.string("status") == "failed")
        #expect(try row?.int("attempts") == 1)
        #expect(try row?.string("last_error").contains("no push sender configured") == true)
        try await database.close()
    }
}
