import ConciergeModels
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Booking notifications travel by the email provider the configuration names, not the dev
/// outbox, whenever one is configured.
@Suite struct NotificationWiringTests {
    @Test func withSMTPConfiguredConfirmationsGoToSMTPNotTheDevOutbox() async throws {
        // Nothing listens on port 1: the send fails and is retried later, and nothing may land
        // in the dev outbox meanwhile.
        let app = try await TestApp.make(
            engine: .sqlite,
            environment: ["SMTP_URL": "smtp://127.0.0.1:1?from=rides@example.com"])
        try await app.runWithWorker { client, worker in
            let token = try await client.signedInCustomer()
            let booking = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * 86_400))
                .decode(BookingResponse.self)
            let reference = try require(booking.quoteReference)
            _ = try await client.checkout(try require(booking.checkoutUrl), outcome: "paid")
            #expect(try await client.bookingStatus(reference, token: token) == "confirmed")
            await worker.tick()
            #expect(try await client.emails(subjectContaining: reference).isEmpty)
        }
    }

    @Test func withoutAnEmailProviderConfirmationsLandInTheDevOutbox() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.runWithWorker { client, worker in
            let token = try await client.signedInCustomer()
            let booking = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * 86_400))
                .decode(BookingResponse.self)
            let reference = try require(booking.quoteReference)
            _ = try await client.checkout(try require(booking.checkoutUrl), outcome: "paid")
            await worker.tick()
            #expect(try await client.emails(subjectContaining: reference).count == 1)
        }
    }
}
