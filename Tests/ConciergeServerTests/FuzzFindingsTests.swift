import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import ConciergeServer

/// What `scripts/fuzz-api` (schemathesis against /openapi.yaml) found, pinned down.
@Suite struct FuzzFindingsTests {
    static let adminToken = String(repeating: "f", count: 32)

    static func make() async throws -> TestApp {
        try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_ADMIN_TOKEN": adminToken])
    }

    /// No route between the places is the seed's 502 `route_failed` ("route calculation failed,
    /// ask the user to check locations"), with a message that says why.
    @Test func noRouteBetweenThePlacesIsTheSeeds502RouteFailed() async throws {
        let app = try await Self.make()
        let pickup = app.clock.now.addingTimeInterval(3 * 86_400)
        try await app.run { client in
            let priced = try await client.send(
                .get,
                "/rides/pricing?originPlaceId=gz_iata_ZRH&destinationPlaceId=gz_iata_ZRH&pickupDatetime=\(WireDate.string(from: pickup))"
            )
            #expect(priced.status == .badGateway)
            #expect(priced.errorBody?.code == "route_failed")
            #expect(priced.errorBody?.error.contains("same place") == true)

            let token = try await client.signedInCustomer()
            let booked = try await client.book(token: token, pickupAt: pickup, from: "gz_iata_ZRH", to: "gz_iata_ZRH")
            #expect(booked.status == .badGateway)
            #expect(booked.errorBody?.code == "route_failed")
        }
    }

    /// What the document calls an integer is one: `offset=0.5` used to be read as 0.
    @Test func pagingTakesWholeNumbersOnly() async throws {
        let app = try await Self.make()
        try await app.run { client in
            let token = try await client.signedInCustomer()
            for query in ["offset=0.5", "limit=2e1", "limit=1.0", "offset=1000001", "limit=0", "limit=ten"] {
                let response = try await client.send(.get, "/rides/bookings?\(query)", token: token)
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.errorBody?.code == "invalid_request", "\(query)")
            }
            for query in ["limit=", "limit=100&offset=1000000", "offset=+3"] {
                #expect(try await client.send(.get, "/rides/bookings?\(query)", token: token).status == .ok, "\(query)")
            }
            let admin = try await client.send(.get, "/admin/bookings?limit=1.5", token: Self.adminToken)
            #expect(admin.status == .badRequest)
            #expect(try await client.send(.get, "/admin/bookings?limit=500", token: Self.adminToken).status == .ok)
        }
    }

    /// A path that exists, asked with a method it lacks, is 405 with `Allow`; other paths stay 404.
    @Test func aKnownPathWithAnotherMethodIs405() async throws {
        let app = try await Self.make()
        try await app.run { client in
            for (method, path, allow) in [
                (HTTPRequest.Method.put, "/health", "GET"),
                (.delete, "/rides/bookings/VRM-1234", "GET"),
                (.get, "/rides/bookings/VRM-1234/cancel", "POST"),
                (.post, "/rides/me", "GET, PATCH"),
                (.patch, "/sandbox/checkout/sbx_1", "GET, POST"),
                (.get, "/admin/bookings/VRM-1234/status", "POST"),
            ] {
                let response = try await client.send(method, path)
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.headers[.allow] == allow, "\(method) \(path)")
                #expect(response.errorBody?.code == "method_not_allowed", "\(method) \(path)")
            }
            // (`/rides` itself is the rides web page now, issue 15.)
            for path in ["/nope", "/rides/bookings/VRM-1/cancel/now", "/rides/nowhere"] {
                let response = try await client.send(.get, path)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.errorBody?.code == "not_found", "\(path)")
            }
        }
    }

    /// The sandbox checkout takes `outcome` whatever else the form carries (a repeated field used
    /// to make the whole form unreadable: 400 "Send the form field 'outcome'").
    @Test func theCheckoutFormIsReadPastOtherFields() async throws {
        let app = try await Self.make()
        try await app.run { client in
            let token = try await client.signedInCustomer()
            let booked = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * 86_400))
            let checkoutURL = try #require(try booked.decode(BookingResponse.self).checkoutUrl)
            let path = try #require(URL(string: checkoutURL)?.path)
            let paid = try await client.execute(
                uri: path, method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "x=1&x=2&%17%C2%AA=null&outcome=paid&outcome=failed"))
            #expect(paid.status == .seeOther)
        }
        #expect(FormFields.first("outcome", in: "a=1&outcome=can+celed") == "can celed")
        #expect(FormFields.first("outcome", in: "outcome") == "")
        #expect(FormFields.first("outcome", in: "a=1&b=%E2%82%AC") == nil)
        #expect(FormFields.first("id", in: "id=tr_%41bc") == "tr_Abc")
    }
}
