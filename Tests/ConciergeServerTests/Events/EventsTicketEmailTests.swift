import ConciergeCore
import ConciergeModels
import ConciergeProviders
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

@testable import ConciergeServer

/// The confirmation email's ticket images are drawn at delivery, not in the payment: the outbox
/// holds a recipe per seat and no PNG bytes, and Postmark (the real adapter, through its
/// transport seam) sends PNGs that zbarimg reads back as each seat's signed ticket.
@Suite struct EventsTicketEmailTests {
    /// Postmark as far as the adapter can tell: every request is answered with a success.
    final class PostmarkRecorder: ProviderHTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [ProviderHTTPRequest] = []
        var requests: [ProviderHTTPRequest] { lock.withLock { stored } }

        func send(_ request: ProviderHTTPRequest, timeout: Duration) async throws -> ProviderHTTPResponse {
            lock.withLock { stored.append(request) }
            return ProviderHTTPResponse(status: 200, body: Data(#"{"ErrorCode":0,"Message":"OK"}"#.utf8))
        }
    }

    @Test(arguments: TestEngine.all)
    func theOutboxHoldsRecipesAndPostmarkSendsPNGsOfEachSeatsTicket(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        try await app.runWithWorker { client, worker in
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let seats = ["stalls-B5", "stalls-B6"]
            let checkout = try await client.seatCheckout(anna, seats: seats).decode(Events.SeatCheckoutResponse.self)
            _ = try await client.checkout(checkout.url, outcome: "paid")
            _ = try await client.send(.get, "/events/api/checkout/success?session_id=\(checkout.sessionId)")

            // Queued by the payment, not yet delivered: a recipe per seat, no bytes.
            let database = try await app.configuration.storage.open(logger: TestApp.quiet)
            let rows = try await database.query(
                """
                SELECT a.filename, a.content_base64, a.recipe FROM outbox_attachments a
                JOIN notification_outbox n ON n.seq = a.outbox_seq
                WHERE n.dedupe_key = ? AND a.content_type = 'image/png' ORDER BY a.position
                """, [.text("events:confirmed:\(checkout.orderId)")])
            #expect(try rows.map { try $0.string("filename") } == seats.map { "ticket-\($0).png" })
            #expect(
                try rows.allSatisfy { try $0.string("content_base64").isEmpty && $0.optionalString("recipe") != nil })

            let postmark = PostmarkRecorder()
            let deliverer = NotificationDeliverer(
                outbox: SQLNotificationQueue(database: database),
                email: PostmarkEmailSender(
                    serverToken: "server-token", from: "tickets@example.com", transport: postmark),
                sms: RecordingSMSSender(), clock: app.clock)
            _ = try await deliverer.deliverDue()
            try await database.close()

            let sent = try postmark.requests.compactMap { request -> [[String: String]]? in
                let json = try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any]
                return json?["Attachments"] as? [[String: String]]
            }
            #expect(sent.count == 1)
            let images = (sent.first ?? []).filter { $0["ContentType"] == "image/png" }
            #expect(images.map { $0["Name"] } == seats.map { "ticket-\($0).png" })
            for (seat, image) in zip(seats, images) {
                let png = try #require(Data(base64Encoded: image["Content"] ?? ""))
                // The same signed ticket as the seat's own image, drawn as the payment used to.
                let ticket = try await client.send(
                    .get, "/events/api/user/bookings/\(checkout.orderId)/tickets/\(seat).png", token: anna)
                guard let payload = try QRImageReader.decode(Array(png)) else { continue }
                #expect(payload == (try QRImageReader.decode(Array(ticket.body.readableBytesView))))
                #expect(payload.hasPrefix("CEVS1.\(checkout.orderId).shw_demo_1.\(seat)."))
                #expect(png == Data(try QRCode(text: payload, errorCorrection: .medium).png(moduleSize: 6)))
            }
        }
    }
}
