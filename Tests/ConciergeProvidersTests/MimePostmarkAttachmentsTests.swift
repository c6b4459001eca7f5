import ConciergeCore
import Foundation
import Testing

@testable import ConciergeProviders

/// Postmark's request for an email with HTML and attachments (the contract's `HtmlBody` and
/// `Attachments: [{Name, Content, ContentType}]`, content base64).
@Suite struct MimePostmarkAttachmentsTests {
    @Test func theRequestCarriesHtmlBodyAndBase64Attachments() async throws {
        let transport = try RecordingTransport(status: 200, fixture: "postmark_send_200")
        let sender = PostmarkEmailSender(
            serverToken: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", from: "Concierge <tickets@example.com>",
            transport: transport)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        try await sender.sendEmail(
            EmailContent(
                to: "anna@example.ch", subject: "Your tickets", textBody: "Seat A12",
                htmlBody: "<p>Seat <b>A12</b></p>",
                attachments: [EmailAttachment(filename: "ticket-A12.png", contentType: "image/png", content: png)]),
            deliveryKey: "ord_1:tickets")

        let request = try await transport.onlyRequest
        #expect(request.url == "https://api.postmarkapp.com/email")
        let body = try #require(request.body)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(json["TextBody"] as? String == "Seat A12")
        #expect(json["HtmlBody"] as? String == "<p>Seat <b>A12</b></p>")
        #expect(json["MessageStream"] as? String == "outbound")
        let attachments = try #require(json["Attachments"] as? [[String: String]])
        #expect(
            attachments == [
                ["Name": "ticket-A12.png", "Content": png.base64EncodedString(), "ContentType": "image/png"]
            ])
        #expect(Data(base64Encoded: attachments[0]["Content"] ?? "") == png)
    }

    @Test func aTextOnlyEmailIsTheSameRequestAsBefore() throws {
        let body = try PostmarkEmailSender.body(
            from: "Concierge <bookings@example.com>", to: "guest@example.org", subject: "Hi", textBody: "Hello")
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"From":"Concierge <bookings@example.com>","MessageStream":"outbound","Subject":"Hi","TextBody":"Hello","To":"guest@example.org"}"#
        )
    }
}
