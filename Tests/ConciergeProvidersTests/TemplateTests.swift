import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// The rides message templates produce byte for byte the texts the code used to build (the
/// expected strings below are the old string literals with the same values), and an HTML part
/// whose values are escaped.
@Suite struct TemplateTests {
    let templates: MustacheMessageTemplates

    init() throws {
        templates = try MustacheMessageTemplates.bundled()
    }

    static let when = "Sat 14 Feb 2026, 09:30"
    static let pickup = "Zürich Flughafen (ZRH), 8058 Zürich"
    static let destination = "Bahnhofstrasse 1, 8001 Zürich"

    func confirmation(flight: String?) throws -> RenderedMessage {
        var values = [
            "reference": "VRM-1234567890", "when": Self.when, "pickup": Self.pickup, "destination": Self.destination,
            "pickupName": "Zürich Flughafen", "vehicle": "business", "passengers": "2", "paid": "CHF 128.50",
            "freeCancellationHours": "24",
        ]
        values["flightNumber"] = flight
        return try templates.render("rides-confirmation", values: values)
    }

    /// The confirmation as `BookingMessages.swift` built it before templates.
    static func oldConfirmation(flight: String?) -> String {
        """
        Your ride VRM-1234567890 is confirmed.

        Pickup: \(pickup)
        Destination: \(destination)
        When: \(when)
        Vehicle: business\(flight.map { ", flight \($0)" } ?? "")
        Passengers: 2
        Paid: CHF 128.50

        What happens next: your chauffeur's name and car are sent to you before the ride. \
        You can cancel free of charge until 24 hours before pickup.
        """
    }

    @Test(arguments: [nil, "LX 318"])
    func theConfirmationTextIsTheOldText(flight: String?) throws {
        let rendered = try confirmation(flight: flight)
        #expect(rendered.text == Self.oldConfirmation(flight: flight))
        #expect(rendered.subject == "Your ride VRM-1234567890 is confirmed")
        #expect(
            rendered.sms
                == "Concierge: ride VRM-1234567890 confirmed for \(Self.when) from Zürich Flughafen. Paid CHF 128.50.")
        let html = try #require(rendered.html)
        #expect(html.contains("<h1 style=\"font-size: 20px;\">Your ride VRM-1234567890 is confirmed.</h1>"))
        #expect(html.contains("<td>\(Self.pickup)</td>"))
        #expect(html.contains(", flight LX 318") == (flight != nil))
    }

    @Test func theLateRefundAndCancellationTextsAreTheOldTexts() throws {
        let values = [
            "reference": "VRM-1234567890", "when": Self.when, "minimumAdvanceHours": "2", "refunded": "CHF 128.50",
        ]
        let late = try templates.render("rides-late-refund", values: values)
        #expect(
            late.text == """
                Your payment for ride VRM-1234567890 arrived after the quote had expired, and the pickup \
                (\(Self.when)) is now less than 2 hours away, \
                so we could not confirm the ride. We have refunded CHF 128.50 in full.
                """)
        #expect(late.subject == "Ride VRM-1234567890: payment refunded")
        #expect(late.sms == "Concierge: payment for ride VRM-1234567890 came too late; refunded CHF 128.50.")
        #expect(late.html?.contains("<strong>CHF 128.50</strong>") == true)

        let cancelled = try templates.render("rides-cancellation", values: values)
        #expect(
            cancelled.text == """
                Your ride VRM-1234567890 on \(Self.when) is cancelled. \
                We have refunded CHF 128.50.
                """)
        #expect(cancelled.subject == "Ride VRM-1234567890 cancelled")
        #expect(cancelled.sms == "Concierge: ride VRM-1234567890 cancelled; refunded CHF 128.50.")
    }

    @Test func htmlEscapesValuesAndTextKeepsThemAsTheyAre() throws {
        let rendered = try templates.render(
            "rides-cancellation",
            values: ["reference": "VRM-1", "when": "<script>alert(\"x\")</script> & more", "refunded": "CHF 1.00"])
        #expect(rendered.text?.contains("<script>alert(\"x\")</script> & more") == true)
        let html = try #require(rendered.html)
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;"))
        #expect(html.contains("&amp; more"))
    }

    @Test func anUnknownMessageIsAnErrorNamingIt() throws {
        let error = #expect(throws: ConciergeError.self) { try templates.render("rides-nope", values: [:]) }
        #expect(error?.code == "template_missing")
        #expect(error?.message.contains("rides-nope") == true)
        let parsed = try MustacheMessageTemplates(sources: ["x.text": "Hello {{{name}}}\n"])
        #expect(
            try parsed.render("x", values: ["name": "Anna"])
                == RenderedMessage(
                    subject: nil, text: "Hello Anna", html: nil, sms: nil))
    }
}
