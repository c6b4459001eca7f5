import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import ConciergeServer

/// Every route that takes a reference, an id or a key keeps customers apart: another
/// customer's booking is answered exactly like one that does not exist, attempts on it change
/// nothing, and idempotency keys belong to the customer who sent them.
@Suite struct AuthorizationTests {
    static let adminToken = String(repeating: "z", count: 40)
    static let day: TimeInterval = 86_400

    /// The owner has a booking waiting for payment and a paid (confirmed) one; the stranger,
    /// signed in on the same server, has a paid booking of their own.
    struct Scene {
        let owner: String
        let stranger: String
        let waiting: String
        let paid: String
        let paidPrice: String
        let paidCheckout: String
        /// The return page link with the paid booking's secret, as the checkout redirects to it.
        let paidReturnPath: String
        let strangersOwn: String
        let strangersReturnPath: String
    }

    static func makeScene(_ client: any TestClientProtocol, app: TestApp) async throws -> Scene {
        let pickup = app.clock.now.addingTimeInterval(3 * day)
        let owner = try await client.signedInCustomer(phone: "+41791110000", email: "owner@example.ch")
        let waiting = try await client.book(token: owner, pickupAt: pickup, key: "owner-key-1")
            .decode(BookingResponse.self)
        let paid = try await client.book(token: owner, pickupAt: pickup, vehicleClass: "first")
            .decode(BookingResponse.self)
        let paidReturn = try await pay(client, paid)
        let stranger = try await client.signedInCustomer(phone: "+41792220000", email: "stranger@example.ch")
        let strangersOwn = try await client.book(token: stranger, pickupAt: pickup, vehicleClass: "xl")
            .decode(BookingResponse.self)
        let strangersReturn = try await pay(client, strangersOwn)
        return Scene(
            owner: owner, stranger: stranger, waiting: try require(waiting.quoteReference),
            paid: try require(paid.quoteReference), paidPrice: try require(paid.priceFormatted),
            paidCheckout: try require(paid.checkoutUrl), paidReturnPath: paidReturn,
            strangersOwn: try require(strangersOwn.quoteReference), strangersReturnPath: strangersReturn)
    }

    /// Pays at the sandbox checkout; returns the path and query the browser is sent back to.
    static func pay(_ client: any TestClientProtocol, _ booking: BookingResponse) async throws -> String {
        let done = try await client.checkout(try require(booking.checkoutUrl), outcome: "paid")
        #expect(done.status == .seeOther)
        let location = try require(URLComponents(string: try require(done.headers[.location])))
        return location.path + "?" + (location.percentEncodedQuery ?? "")
    }

    /// A well-formed reference that belongs to nobody.
    static func unknownReference(besides known: [String]) -> String {
        (0..<1000).map { "VRM-" + String(format: "%06d", $0) }.first { !known.contains($0) } ?? "VRM-999999"
    }

    /// The body with the reference it echoes blanked out, to compare answers about two references.
    static func anonymised(_ response: TestResponse, _ reference: String) -> String {
        String(buffer: response.body).replacingOccurrences(of: reference, with: "<ref>")
    }

    static func app(_ engine: TestEngine) async throws -> TestApp {
        try await TestApp.make(engine: engine, environment: ["CONCIERGE_ADMIN_TOKEN": adminToken])
    }

    @Test(arguments: TestEngine.all)
    func anotherCustomersBookingIsNotFoundOnEveryRoute(engine: TestEngine) async throws {
        let app = try await Self.app(engine)
        try await app.run { client in
            let scene = try await Self.makeScene(client, app: app)
            for reference in [scene.waiting, scene.paid] {
                for spelling in [reference, reference.lowercased()] {
                    let detail = try await client.send(.get, "/rides/bookings/\(spelling)", token: scene.stranger)
                    #expect(detail.status == .notFound)
                    #expect(detail.errorBody?.code == "booking_not_found")
                    let cancel = try await client.send(
                        .post, "/rides/bookings/\(spelling)/cancel", token: scene.stranger)
                    #expect(cancel.status == .notFound)
                    #expect(cancel.errorBody?.code == "booking_not_found")
                }
                // A customer's session is not an admin token.
                let admin = try await client.send(.get, "/admin/bookings/\(reference)", token: scene.stranger)
                #expect(admin.status == .unauthorized)
                let advance = try await client.send(
                    .post, "/admin/bookings/\(reference)/status", json: #"{"status": "cancelled"}"#,
                    token: scene.stranger)
                #expect(advance.status == .unauthorized)
            }
            let list = try await client.send(.get, "/rides/bookings", token: scene.stranger).decode(
                BookingListResponse.self)
            #expect(list.bookings.map(\.reference) == [scene.strangersOwn])

            // The owner's bookings are as they were: nothing cancelled, nothing refunded.
            #expect(try await client.bookingStatus(scene.waiting, token: scene.owner) == "awaiting_payment")
            #expect(try await client.bookingStatus(scene.paid, token: scene.owner) == "confirmed")
            let waitingLog = try await client.adminBooking(scene.waiting, adminToken: Self.adminToken).events
            #expect(waitingLog.map(\.type) == ["created"])
            let paidLog = try await client.adminBooking(scene.paid, adminToken: Self.adminToken).events
            #expect(paidLog.map(\.type) == ["created", "confirmed"])
            let owners = try await client.send(.get, "/rides/bookings", token: scene.owner).decode(
                BookingListResponse.self)
            #expect(Set(owners.bookings.map(\.reference)) == [scene.waiting, scene.paid])
        }
    }

    @Test(arguments: TestEngine.all)
    func anotherCustomersReferenceIsAnsweredExactlyLikeAnUnknownOne(engine: TestEngine) async throws {
        let app = try await Self.app(engine)
        try await app.run { client in
            let scene = try await Self.makeScene(client, app: app)
            let unknown = Self.unknownReference(besides: [scene.waiting, scene.paid, scene.strangersOwn])
            for foreign in [scene.waiting, scene.paid] {
                for (method, suffix) in [(HTTPRequest.Method.get, ""), (.post, "/cancel")] {
                    let theirs = try await client.send(
                        method, "/rides/bookings/\(foreign)\(suffix)", token: scene.stranger)
                    let nobodys = try await client.send(
                        method, "/rides/bookings/\(unknown)\(suffix)", token: scene.stranger)
                    #expect(theirs.status == nobodys.status)
                    #expect(theirs.headers[.contentType] == nobodys.headers[.contentType])
                    #expect(Self.anonymised(theirs, foreign) == Self.anonymised(nobodys, unknown))
                }
            }
        }
    }

    @Test(arguments: TestEngine.all)
    func theReturnPageOpensOnlyWithTheBookingsOwnSecret(engine: TestEngine) async throws {
        let app = try await Self.app(engine)
        try await app.run { client in
            let scene = try await Self.makeScene(client, app: app)
            let owners = try require(URLComponents(string: scene.paidReturnPath)?.queryItems)
            let ownSecret = try require(owners.first { $0.name == "t" }?.value)
            let strangers = try require(URLComponents(string: scene.strangersReturnPath)?.queryItems)
            let strangersSecret = try require(strangers.first { $0.name == "t" }?.value)
            #expect(ownSecret != strangersSecret)

            // The link the checkout sends the owner to shows the details.
            let own = try await client.send(.get, scene.paidReturnPath)
            #expect(own.status == .ok)
            #expect(String(buffer: own.body).contains("<dl>"))
            #expect(String(buffer: own.body).contains(scene.paidPrice))

            let unknown = Self.unknownReference(besides: [scene.waiting, scene.paid, scene.strangersOwn])
            let missing = try await client.send(.get, "/rides/booking-confirmed?ref=\(unknown)&t=\(ownSecret)")
            #expect(missing.status == .notFound)

            // Without the secret, with a wrong one, or with another booking's: the very page an
            // unknown reference gets, so references cannot be probed for existence or state.
            for secret in [nil, "", "wrong", strangersSecret, String(ownSecret.dropLast()), ownSecret.uppercased()] {
                var uri = "/rides/booking-confirmed?ref=\(scene.paid)"
                if let secret {
                    uri += "&t=" + (secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                }
                let page = try await client.send(.get, uri)
                let html = String(buffer: page.body)
                #expect(!html.contains("<dl>"), "t=\(secret ?? "none")")
                #expect(!html.contains(scene.paidPrice), "t=\(secret ?? "none")")
                #expect(!html.contains("Pickup"), "t=\(secret ?? "none")")
                #expect(page.status == .notFound, "t=\(secret ?? "none")")
                #expect(html == String(buffer: missing.body), "t=\(secret ?? "none")")
            }
            let waiting = try await client.send(
                .get, "/rides/booking-confirmed?ref=\(scene.waiting)&t=\(strangersSecret)")
            #expect(waiting.status == .notFound)
            #expect(!String(buffer: missing.body).contains("<dl>"))
        }
    }

    @Test(arguments: TestEngine.all)
    func idempotencyKeysBelongToTheCustomerWhoSentThem(engine: TestEngine) async throws {
        let app = try await Self.app(engine)
        try await app.run { client in
            let scene = try await Self.makeScene(client, app: app)
            let pickup = app.clock.now.addingTimeInterval(3 * Self.day)

            // The stranger sends the owner's key with another request: not 409
            // idempotency_key_reused (that would tell them the key is in use by someone), but a
            // booking of their own.
            let otherBody = try await client.book(
                token: scene.stranger, pickupAt: pickup, vehicleClass: "first", key: "owner-key-1")
            #expect(otherBody.status == .ok)
            let otherReference = try require(try otherBody.decode(BookingResponse.self).quoteReference)
            #expect(otherReference != scene.waiting)

            // The owner books with a second key; the stranger sends it with the owner's very
            // request: again a booking of their own, not the owner's answer (reference, price,
            // checkout link).
            let owners = try await client.book(token: scene.owner, pickupAt: pickup, key: "owner-key-2")
            #expect(owners.status == .ok)
            let ownersBooking = try owners.decode(BookingResponse.self)
            let same = try await client.book(token: scene.stranger, pickupAt: pickup, key: "owner-key-2")
            #expect(same.status == .ok)
            let theirs = try same.decode(BookingResponse.self)
            let reference = try require(theirs.quoteReference)
            #expect(reference != ownersBooking.quoteReference)
            #expect(same.body != owners.body)
            #expect(theirs.checkoutUrl != ownersBooking.checkoutUrl)
            // Each one's repeat replays their own booking.
            #expect(
                try await client.book(token: scene.stranger, pickupAt: pickup, key: "owner-key-2").body == same.body)
            #expect(try await client.book(token: scene.owner, pickupAt: pickup, key: "owner-key-2").body == owners.body)
            let replayed = try await client.book(token: scene.owner, pickupAt: pickup, key: "owner-key-1")
            #expect(try replayed.decode(BookingResponse.self).quoteReference == scene.waiting)

            let strangers = try await client.send(.get, "/rides/bookings", token: scene.stranger).decode(
                BookingListResponse.self)
            #expect(Set(strangers.bookings.map(\.reference)) == [scene.strangersOwn, otherReference, reference])
            let ownersList = try await client.send(.get, "/rides/bookings", token: scene.owner).decode(
                BookingListResponse.self)
            #expect(
                Set(ownersList.bookings.map(\.reference))
                    == [scene.waiting, scene.paid, try require(ownersBooking.quoteReference)])
            #expect(try await client.bookingStatus(scene.waiting, token: scene.owner) == "awaiting_payment")
        }
    }

    /// The sandbox checkout is bound to its payment, not to a customer: like a provider's hosted
    /// checkout, its unguessable id (128 random bits) is the capability. Unknown ids are 404, and
    /// the page carries nothing about the customer beyond the amount and the ride's reference.
    @Test(arguments: TestEngine.all)
    func theSandboxCheckoutNeedsItsUnguessableIdAndShowsNoCustomerData(engine: TestEngine) async throws {
        let app = try await Self.app(engine)
        try await app.run { client in
            let scene = try await Self.makeScene(client, app: app)
            let path = try require(URL(string: scene.paidCheckout)?.path)
            let page = try await client.send(.get, path, token: scene.stranger)
            let html = String(buffer: page.body)
            for secret in ["owner@example.ch", "+41791110000", "791110000", "Pickup", "Destination"] {
                #expect(!html.contains(secret), "\(secret)")
            }
            // Already paid: pressing Fail afterwards changes nothing.
            let late = try await client.checkout(scene.paidCheckout, outcome: "failed")
            #expect(late.status == .seeOther)
            #expect(try await client.bookingStatus(scene.paid, token: scene.owner) == "confirmed")

            let guessed = "sbx_" + String(repeating: "0", count: 32)
            let missingPage = try await client.send(.get, "/sandbox/checkout/\(guessed)")
            #expect(missingPage.status == .notFound)
            #expect(missingPage.errorBody?.code == "payment_not_found")
            let missingSubmit = try await client.execute(
                uri: "/sandbox/checkout/\(guessed)", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "outcome=paid"))
            #expect(missingSubmit.status == .notFound)
        }
    }
}
