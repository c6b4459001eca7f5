import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

@Suite struct AdminAPITests {
    static let token = String(repeating: "t", count: 40)
    static let driver =
        #"{"name": "Marco Rossi", "phone": "+41791112233", "vehicle": "Mercedes E 300, black", "plate": "ZH 123456"}"#

    func admin(_ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, json: String? = nil)
        async throws
        -> TestResponse
    {
        try await client.send(method, uri, json: json, token: Self.token)
    }

    @Test func theAdminAPINeedsItsToken() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_ADMIN_TOKEN": Self.token])
        try await app.run { client in
            let anonymous = try await client.send(.get, "/admin/bookings")
            #expect(anonymous.status == .unauthorized)
            let wrong = try await client.send(.get, "/admin/bookings", token: "wrong")
            #expect(wrong.errorBody?.code == "admin_unauthorized")
        }
        let off = try await TestApp.make(engine: .sqlite)
        try await off.run { client in
            let disabled = try await client.send(.get, "/admin/bookings", token: Self.token)
            #expect(disabled.status == .notFound)
        }
    }

    @Test func aRideMovesThroughItsStepsAndTheCustomerSeesTheDriver() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_ADMIN_TOKEN": Self.token])
        try await app.run { client in
            let token = try await client.signedInCustomer()
            let booking = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * 86_400))
                .decode(BookingResponse.self)
            let reference = try require(booking.quoteReference)

            // Not paid yet: no driver can be assigned.
            let early = try await admin(
                client, .post, "/admin/bookings/\(reference)/status",
                json: #"{"status": "driver_assigned", "driver": \#(Self.driver)}"#)
            #expect(early.status == .conflict)
            #expect(early.errorBody?.code == "invalid_transition")

            _ = try await client.checkout(try require(booking.checkoutUrl), outcome: "paid")
            let confirmed = try await admin(client, .get, "/admin/bookings?status=confirmed").decode(
                BookingListResponse.self)
            #expect(confirmed.bookings.map(\.reference) == [reference])

            let missingDriver = try await admin(
                client, .post, "/admin/bookings/\(reference)/status", json: #"{"status": "driver_assigned"}"#)
            #expect(missingDriver.status == .badRequest)
            #expect(missingDriver.errorBody?.code == "driver_required")

            let skipping = try await admin(
                client, .post, "/admin/bookings/\(reference)/status", json: #"{"status": "on_board"}"#)
            #expect(skipping.status == .conflict)

            let assigned = try await admin(
                client, .post, "/admin/bookings/\(reference)/status",
                json: #"{"status": "driver_assigned", "driver": \#(Self.driver)}"#)
            #expect(assigned.status == .ok)
            let seen = try await client.send(.get, "/rides/bookings/\(reference)", token: token).decode(
                BookingDetailResponse.self)
            #expect(seen.booking.status == "driver_assigned")
            #expect(seen.booking.driver?.name == "Marco Rossi")
            #expect(seen.booking.driver?.plate == "ZH 123456")

            for step in ["en_route", "arrived", "on_board", "completed"] {
                let moved = try await admin(
                    client, .post, "/admin/bookings/\(reference)/status", json: #"{"status": "\#(step)"}"#)
                #expect(moved.status == .ok, "\(step)")
            }
            let finished = try await admin(
                client, .post, "/admin/bookings/\(reference)/status", json: #"{"status": "no_show"}"#)
            #expect(finished.status == .conflict)

            let detail = try await admin(client, .get, "/admin/bookings/\(reference)").decode(AdminBookingResponse.self)
            #expect(detail.booking.status == "completed")
            #expect(
                detail.events.map(\.type) == [
                    "created", "confirmed", "driver_assigned", "en_route", "arrived", "on_board", "completed",
                ])
            #expect(detail.events[1].actor == "provider:sandbox")
            #expect(detail.events[2].actor == "admin")
        }
    }
}
