import ConciergeCore
import Foundation
import Testing

@testable import ConciergeProviders

/// An attachment queued as a recipe (a ticket's QR code) reaches the recipient as the PNG it
/// stands for: Postmark's request and the SMTP message carry the drawn bytes, the same bytes as
/// drawing the QR code directly.
@Suite struct MimeRecipeAttachmentsTests {
    static let payload = "CEVS1.ord_1.shw_demo_1.stalls-A9.c2lnbmF0dXJlLW9mLXRoZS1zZWF0"

    static func ticket() throws -> (attachment: EmailAttachment, png: Data) {
        let recipe = try #require(QRCodePNGRecipe(payload: payload, errorCorrection: .medium, moduleSize: 6))
        let png = Data(try QRCode(text: payload, errorCorrection: .medium).png(moduleSize: 6))
        return (
            EmailAttachment(filename: "ticket-stalls-A9.png", contentType: "image/png", source: .qrCodePNG(recipe)), png
        )
    }

    @Test func postmarkSendsTheDrawnPNG() async throws {
        let (attachment, png) = try Self.ticket()
        let transport = try RecordingTransport(status: 200, fixture: "postmark_send_200")
        let sender = PostmarkEmailSender(
            serverToken: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", from: "Concierge <tickets@example.com>",
            transport: transport)
        try await sender.sendEmail(
            EmailContent(
                to: "anna@example.ch", subject: "Your tickets", textBody: "Seat A9", attachments: [attachment]),
            deliveryKey: "events:confirmed:ord_1")

        let body = try #require(try await transport.onlyRequest.body)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let sent = try #require((json["Attachments"] as? [[String: String]])?.first)
        #expect(sent["Name"] == "ticket-stalls-A9.png" && sent["ContentType"] == "image/png")
        #expect(Data(base64Encoded: sent["Content"] ?? "") == png)
    }

    @Test func smtpSendsTheDrawnPNG() async throws {
        let (attachment, png) = try Self.ticket()
        let server = try await SMTPTestServer.start(.init(offerSTARTTLS: false))
        defer { Task { try? await server.stop() } }
        // The suite's generous timeout, as `SMTPEmailSenderTests` use: the whole test run shares two
        // cores, and the default 30 s ran out in CI.
        try await SMTPEmailSender(
            smtpURL: "smtp://127.0.0.1:\(server.port)?from=tickets@example.com&starttls=optional",
            timeout: .seconds(300)
        )
        .sendEmail(
            EmailContent(
                to: "anna@example.ch", subject: "Your tickets", textBody: "Seat A9", attachments: [attachment]),
            deliveryKey: "events:confirmed:ord_1")

        let data = try #require(server.messages.first).data
        let message = try MimeMessageTests.Entity(data)
        let parts = try message.parts()
        #expect(parts.count == 2)
        #expect(parts[1].headers["content-disposition"] == "attachment; filename=\"ticket-stalls-A9.png\"")
        #expect(try parts[1].decoded() == png)
    }
}
