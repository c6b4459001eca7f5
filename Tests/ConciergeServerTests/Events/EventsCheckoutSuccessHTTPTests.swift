import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// `GET /events/api/checkout/success?session_id=` after payment (review 2026-11-27, finding 12):
/// the session id is in the provider's return URL, so it alone shows the booking's status and
/// totals but no ticket; the owner's bearer token brings `qrCode` and the seats.
@Suite struct EventsCheckoutSuccessHTTPTests {
    @Test(arguments: TestEngine.all)
    func theTicketsComeOnlyWithTheOwnersToken(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        try await app.runWithWorker { client, worker in
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let ben = try await client.eventsBuyer("ben@example.ch", worker: worker)
            let checkout = try await client.seatCheckout(anna, seats: ["stalls-B1", "stalls-B2"])
                .decode(Events.SeatCheckoutResponse.self)
            _ = try await client.checkout(checkout.url, outcome: "paid")
            let path = "/events/api/checkout/success?session_id=\(checkout.sessionId)"

            for token in [nil, ben, "not-a-token"] {
                let answer = try await client.send(.get, path, token: token)
                #expect(answer.status == .ok)
                let json = String(buffer: answer.body)
                #expect(!json.contains("qrCode") && !json.contains("CEVT"))
                let result = try answer.decode(Events.CheckoutSuccessResponse.self)
                #expect(result.success && result.status == .confirmed)
                let booking = try #require(result.booking)
                #expect(booking.id == checkout.orderId && booking.status == .confirmed)
                #expect(
                    booking.seats.isEmpty && booking.qrCode == nil
                        && booking.totalAmountCents == checkout.totalAmountCents)
            }

            let owner = try await client.send(.get, path, token: anna).decode(Events.CheckoutSuccessResponse.self)
            let booking = try #require(owner.booking)
            #expect(booking.qrCode?.hasPrefix("CEVT") == true)
            #expect(booking.seats.map(\.id).sorted() == ["stalls-B1", "stalls-B2"])
        }
    }
}
