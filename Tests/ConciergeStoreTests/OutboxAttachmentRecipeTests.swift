import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// Attachments queued as recipes on both engines: the outbox keeps the recipe and no bytes, the
/// worker gets the recipe back, rows written before recipes existed still read, and a recipe
/// this server cannot draw is reported instead of sent broken.
@Suite struct OutboxAttachmentRecipeTests {
    static let payload = "CEVS1.ord_1.shw_demo_1.stalls-A9.c2lnbmF0dXJl"

    static func attachmentRows(_ database: any SQLDatabase) async throws -> [SQLRow] {
        try await database.query("SELECT * FROM outbox_attachments ORDER BY position")
    }

    static func claim(_ database: any SQLDatabase, _ clock: ManualTimeSource) async throws -> [QueuedNotification] {
        try await SQLNotificationQueue(database: database).claimDue(
            now: clock.now, leaseUntil: clock.now.addingTimeInterval(60), limit: 10)
    }

    @Test(arguments: TestEngine.all)
    func aRecipeIsStoredUndrawnAndComesBackAsQueued(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let clock = ManualTimeSource()
        let recipe = try #require(QRCodePNGRecipe(payload: Self.payload, errorCorrection: .medium, moduleSize: 6))
        let email = OutboxMessage.email(
            dedupeKey: "events:confirmed:ord_1", to: "anna@example.ch", subject: "Your tickets", text: "Seat A9",
            attachments: [
                EmailAttachment(filename: "ticket-stalls-A9.png", contentType: "image/png", source: .qrCodePNG(recipe)),
                EmailAttachment(filename: "show.ics", contentType: "text/calendar", content: Data("BEGIN".utf8)),
            ])
        #expect(try await database.transaction { db in try await OutboxWriter(clock: clock).enqueue(email, in: db) })

        let rows = try await Self.attachmentRows(database)
        #expect(try rows.map { try $0.string("content_base64") } == ["", Data("BEGIN".utf8).base64EncodedString()])
        #expect(try rows[1].optionalString("recipe") == nil)
        let stored = try #require(try rows[0].optionalString("recipe"))
        #expect(
            stored == #"{"errorCorrection":"M","kind":"qr-code-png","moduleSize":6,"payload":"\#(Self.payload)"}"#)

        #expect(try await Self.claim(database, clock).map(\.notification) == [email])
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func anAttachmentRowFromBeforeRecipesStillReads(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let clock = ManualTimeSource()
        try await OutboxWriter(clock: clock).enqueue(
            .email(dedupeKey: "ord_2:tickets", to: "anna@example.ch", subject: "Your tickets", text: "Seat A12"),
            in: database)
        let seq = try #require(try await database.query("SELECT seq FROM notification_outbox").first?.int("seq"))
        // As outbox migration 1 wrote attachments: bytes only, no recipe column named.
        try await database.query(
            """
            INSERT INTO outbox_attachments (outbox_seq, position, filename, content_type, content_base64)
            VALUES (?, 0, 'ticket-A12.png', 'image/png', ?)
            """, [.integer(Int64(seq)), .text(Data([0x89, 0x50, 0x4E, 0x47]).base64EncodedString())])

        let claimed = try await Self.claim(database, clock)
        #expect(
            claimed.first?.notification.attachments == [
                EmailAttachment(
                    filename: "ticket-A12.png", contentType: "image/png", content: Data([0x89, 0x50, 0x4E, 0x47]))
            ])
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func aRecipeThisServerCannotDrawIsReportedNotSent(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        let clock = ManualTimeSource()
        try await OutboxWriter(clock: clock).enqueue(
            .email(dedupeKey: "ord_3:tickets", to: "anna@example.ch", subject: "Your tickets", text: "Seat A12"),
            in: database)
        let seq = try #require(try await database.query("SELECT seq FROM notification_outbox").first?.int("seq"))
        try await database.query(
            """
            INSERT INTO outbox_attachments (outbox_seq, position, filename, content_type, content_base64, recipe)
            VALUES (?, 0, 'ticket-A12.png', 'image/png', '', ?)
            """,
            [
                .integer(Int64(seq)),
                .text(#"{"errorCorrection":"M","kind":"qr-code-png","moduleSize":0,"payload":"x"}"#),
            ])

        let error = await #expect(throws: ConciergeError.self) { try await Self.claim(database, clock) }
        #expect(error?.code == "corrupt_outbox_attachment")
        try await database.close()
    }
}
