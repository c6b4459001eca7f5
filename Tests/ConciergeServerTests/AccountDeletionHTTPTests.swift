import ConciergeModels
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// `DELETE /account`: personal data erased, sessions ended, bookings kept for accounting.
@Suite struct AccountDeletionHTTPTests {
    static let adminToken = String(repeating: "a", count: 40)

    @Test(arguments: TestEngine.all)
    func deletingErasesTheAccountEndsItsSessionsAndKeepsItsBookings(engine: TestEngine) async throws {
        var environment = AccountHTTP.environment
        environment["CONCIERGE_ADMIN_TOKEN"] = Self.adminToken
        let app = try await TestApp.make(engine: engine, environment: environment)
        try await app.runWithWorker { client, worker in
            let token = try await client.signedInCustomer(phone: "+41791234567", email: "anna@example.ch")
            let customerID = try await client.send(.get, "/rides/me", token: token)
                .decode(CustomerProfileResponse.self).customer.id
            let booked = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * 86_400))
                .decode(BookingResponse.self)
            let reference = try #require(booked.quoteReference)
            // Only a confirmed address joins another account (AccountTakeoverHTTPTests).
            let platform = try await client.verifiedSignUp(email: "anna.m@example.ch", delivering: worker)
            _ = try await client.send(
                .post, "/account/link",
                json: #"{"login": "anna.m@example.ch", "password": "\#(AccountHTTP.password)"}"#,
                token: token)

            let deleted = try await client.send(.delete, "/account", token: token)
            #expect(deleted.status == .ok)

            // Every session of the account is over, rides' and the platform's.
            #expect(try await client.send(.get, "/rides/me", token: token).status == .unauthorized)
            #expect(try await client.send(.get, "/account", token: platform.accessToken).status == .unauthorized)
            #expect(try await client.refresh(try #require(platform.refreshToken)).status == .unauthorized)
            // No method signs in to it any more.
            let password = try await client.send(
                .post, "/account/sign-in",
                json: #"{"login": "anna.m@example.ch", "password": "\#(AccountHTTP.password)"}"#)
            #expect(password.status == .unauthorized)
            let again = try await client.signIn(phone: "+41791234567")
            #expect(again.customer.id != customerID)
            #expect(again.customer.email == nil && again.customer.name == nil)

            // The booking stays, for accounting, still on the erased customer's row.
            let kept = try await client.adminBooking(reference, adminToken: Self.adminToken)
            #expect(kept.customerId == customerID)
            #expect(
                try await client.send(.get, "/rides/bookings", token: again.sessionToken)
                    .decode(BookingListResponse.self).bookings.isEmpty)
        }
    }
}
