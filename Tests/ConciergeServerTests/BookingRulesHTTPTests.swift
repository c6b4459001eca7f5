import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Validation, idempotency, expiry, late payments and cancellation of bookings (privacy: AuthorizationTests).
@Suite struct BookingRulesHTTPTests {
    static let day: TimeInterval = 86_400

    static let invalid: [(String, String)] = [
        (
            #"{"pickup":{"placeId":"gz_iata_ZRH","description":"a"},"destination":{"placeId":"gz_geo_2657896","description":"b"},"dateTime":"PICKUP","vehicleClass":"limo"}"#,
            "invalid_vehicle_class"
        ),
        (
            #"{"pickup":{"placeId":"gz_iata_ZRH","description":"a"},"destination":{"placeId":"gz_geo_2657896","description":"b"},"dateTime":"PICKUP","vehicleClass":"business","passengers":4}"#,
            "too_many_passengers"
        ),
        (
            #"{"pickup":{"placeId":"gz_iata_ZRH","description":"a"},"destination":{"placeId":"gz_geo_2657896","description":"b"},"dateTime":"PICKUP","vehicleClass":"business","passengers":0}"#,
            "invalid_passengers"
        ),
        (
            #"{"pickup":{"placeId":"gz_iata_ZRH","description":"a"},"destination":{"placeId":"gz_geo_2657896","description":"b"},"dateTime":"PICKUP","vehicleClass":"business","flightNumber":"flying"}"#,
            "invalid_flight_number"
        ),
        (
            #"{"pickup":{"placeId":"nowhere","description":"a"},"destination":{"placeId":"gz_geo_2657896","description":"b"},"dateTime":"PICKUP","vehicleClass":"business"}"#,
            "invalid_place"
        ),
        (
            #"{"pickup":{"placeId":"gz_iata_ZRH","description":"a"},"destination":{"placeId":"gz_geo_2657896","description":"b"},"dateTime":"soon","vehicleClass":"business"}"#,
            "invalid_request"
        ),
        (
            #"{"pickup":{"placeId":"gz_iata_ZRH","description":"a"},"dateTime":"PICKUP","vehicleClass":"business"}"#,
            "invalid_request"
        ),
        (
            #"{"pickup":{"placeId":"gz_iata_ZRH","description":"a"},"destination":{"placeId":"gz_geo_2657896","description":"b"},"dateTime":"SOON","vehicleClass":"business"}"#,
            "pickup_too_soon"
        ),
        (
            #"{"pickup":{"placeId":"gz_iata_ZRH","description":"a"},"destination":{"placeId":"gz_geo_2657896","description":"b"},"dateTime":"FAR","vehicleClass":"business"}"#,
            "pickup_too_far"
        ),
    ]

    @Test(arguments: invalid)
    func everyBrokenRuleIs400WithAnActionableMessageAndBooksNothing(body: String, code: String) async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.signedInCustomer()
            let json = body.replacingOccurrences(
                of: "PICKUP", with: WireDate.string(from: app.clock.now.addingTimeInterval(3 * Self.day))
            )
            .replacingOccurrences(of: "SOON", with: WireDate.string(from: app.clock.now.addingTimeInterval(47 * 3600)))
            .replacingOccurrences(
                of: "FAR", with: WireDate.string(from: app.clock.now.addingTimeInterval(366 * Self.day)))
            let response = try await client.send(.post, "/rides/app-book", json: json, token: token)
            #expect(response.status == .badRequest)
            #expect(response.errorBody?.code == code)
            #expect((response.errorBody?.error.count ?? 0) > 20)
            let list = try await client.send(.get, "/rides/bookings", token: token).decode(BookingListResponse.self)
            #expect(list.bookings.isEmpty)
        }
    }

    @Test func bookingNeedsASession() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let response = try await client.send(.post, "/rides/app-book", json: "{}")
            #expect(response.status == .unauthorized)
        }
    }

    @Test func theSameIdempotencyKeyReturnsTheFirstBookingAndAnotherBodyIs422() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.signedInCustomer()
            let pickup = app.clock.now.addingTimeInterval(3 * Self.day)
            let first = try await client.book(token: token, pickupAt: pickup, key: "order-1")
            let again = try await client.book(token: token, pickupAt: pickup, key: "order-1")
            #expect(first.status == .ok)
            #expect(first.body == again.body)
            let other = try await client.book(token: token, pickupAt: pickup, vehicleClass: "first", key: "order-1")
            #expect(other.status == .unprocessableContent)
            #expect(other.errorBody?.code == "idempotency_key_reused")
            let list = try await client.send(.get, "/rides/bookings", token: token).decode(BookingListResponse.self)
            #expect(list.bookings.count == 1)
        }
    }

    @Test(arguments: TestEngine.all)
    func aRepeatGetsItsFirstAnswerEvenOnceItsPickupIsTooSoonToBook(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        try await app.run { client in
            let token = try await client.signedInCustomer()
            let pickup = app.clock.now.addingTimeInterval(2 * Self.day + 3600)
            let first = try await client.book(token: token, pickupAt: pickup, key: "order-1")
            #expect(first.status == .ok)
            // Two hours later the pickup is within 48 hours: a new booking is refused, the repeat is not.
            app.clock.advance(by: 7200)
            let again = try await client.book(token: token, pickupAt: pickup, key: "order-1")
            #expect(again.status == .ok)
            #expect(again.body == first.body)
            let fresh = try await client.book(token: token, pickupAt: pickup, key: "order-2")
            #expect(fresh.errorBody?.code == "pickup_too_soon")
        }
    }

    @Test(arguments: TestEngine.all)
    func aReferenceThatTurnsOutTakenIsDrawnAgainAndTheBookingGoesThrough(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        // The sandbox's references are checked by the write itself: make the first two draws the same.
        let random = RepeatedReferenceDigits(times: 2)
        try await app.runWithWorker(random: random) { client, _ in
            let token = try await client.signedInCustomer()
            let pickup = app.clock.now.addingTimeInterval(3 * Self.day)
            let first = try await client.book(token: token, pickupAt: pickup, key: "order-1")
            let second = try await client.book(token: token, pickupAt: pickup, key: "order-2")
            #expect(first.status == .ok)
            #expect(second.status == .ok)
            let references = try [first, second].map { try #require($0.decode(BookingResponse.self).quoteReference) }
            #expect(Set(references).count == 2)
            #expect(random.repeatsLeft == 0)
            let list = try await client.send(.get, "/rides/bookings", token: token).decode(BookingListResponse.self)
            #expect(Set(list.bookings.map(\.reference)) == Set(references))
        }
    }

    @Test(arguments: TestEngine.all)
    func concurrentRequestsWithOneKeyMakeOneBooking(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        let second = try app.sibling()
        try await app.run { a in
            try await second.run { b in
                let token = try await a.signedInCustomer()
                let pickup = app.clock.now.addingTimeInterval(3 * Self.day)
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for index in 0..<8 {
                        let client = index.isMultiple(of: 2) ? a : b
                        group.addTask { try await client.book(token: token, pickupAt: pickup, key: "same-key").status }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                #expect(statuses.allSatisfy { $0 == .ok || $0 == .conflict })
                #expect(statuses.contains(.ok))
                let list = try await a.send(.get, "/rides/bookings", token: token).decode(BookingListResponse.self)
                #expect(list.bookings.count == 1)
            }
        }
    }

    @Test func anUnpaidBookingExpiresWithItsQuoteAndItsPaymentIsCancelled() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.runWithWorker { client, worker in
            let token = try await client.signedInCustomer()
            let booking = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * Self.day))
                .decode(BookingResponse.self)
            let reference = try require(booking.quoteReference)
            app.clock.advance(by: 1799)
            #expect(try await client.bookingStatus(reference, token: token) == "awaiting_payment")
            app.clock.advance(by: 1)
            await worker.tick()
            #expect(try await client.bookingStatus(reference, token: token) == "expired")
            let page = try await client.send(.get, try require(URL(string: try require(booking.checkoutUrl))?.path))
            #expect(String(buffer: page.body).contains("canceled"))
        }
    }

    @Test func expiryIsAlsoEnforcedOnRead() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.signedInCustomer()
            let booking = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * Self.day))
                .decode(BookingResponse.self)
            app.clock.advance(by: 1801)
            #expect(try await client.bookingStatus(try require(booking.quoteReference), token: token) == "expired")
        }
    }

    @Test func aLatePaymentIsHonouredWhileTheRulesStillHold() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.signedInCustomer()
            let booking = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(5 * Self.day))
                .decode(BookingResponse.self)
            app.clock.advance(by: 1900)
            // The checkout was still open at the provider when the quote lapsed.
            _ = try await client.checkout(try require(booking.checkoutUrl), outcome: "paid")
            #expect(try await client.bookingStatus(try require(booking.quoteReference), token: token) == "confirmed")
        }
    }

    @Test func aLatePaymentIsRefundedWhenThePickupIsNowTooSoon() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.runWithWorker { client, worker in
            let token = try await client.signedInCustomer()
            let booking = try await client.book(
                token: token, pickupAt: app.clock.now.addingTimeInterval(48 * 3600 + 600)
            ).decode(BookingResponse.self)
            let reference = try require(booking.quoteReference)
            app.clock.advance(by: 1900)
            _ = try await client.checkout(try require(booking.checkoutUrl), outcome: "paid")
            #expect(try await client.bookingStatus(reference, token: token) == "refunded")
            await worker.tick()
            let emails = try await client.emails(subjectContaining: "refunded")
            #expect(emails.count == 1)
            #expect((emails.first?["body"] as? String)?.contains("after the quote had expired") == true)
        }
    }

    @Test func cancellingIsFreeUntilTwentyFourHoursBeforePickup() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.signedInCustomer()
            let pickup = app.clock.now.addingTimeInterval(3 * Self.day)
            var references: [String] = []
            for _ in 0..<2 {
                let booking = try await client.book(token: token, pickupAt: pickup).decode(BookingResponse.self)
                _ = try await client.checkout(try require(booking.checkoutUrl), outcome: "paid")
                references.append(try require(booking.quoteReference))
            }
            let cancelled = try await client.send(.post, "/rides/bookings/\(references[0])/cancel", token: token)
            #expect(cancelled.status == .ok)
            #expect(try cancelled.decode(BookingDetailResponse.self).booking.status == "cancelled")

            app.clock.set(pickup.addingTimeInterval(-24 * 3600 + 60))
            let late = try await client.send(.post, "/rides/bookings/\(references[1])/cancel", token: token)
            #expect(late.status == .conflict)
            #expect(late.errorBody?.code == "cancellation_window_closed")
            #expect(late.errorBody?.error.contains("24 hours") == true)
        }
    }

    @Test func historyIsNewestFirstAndPaginated() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.signedInCustomer()
            var references: [String] = []
            for _ in 0..<3 {
                let booking = try await client.book(
                    token: token, pickupAt: app.clock.now.addingTimeInterval(3 * Self.day))
                references.append(try require(try booking.decode(BookingResponse.self).quoteReference))
                app.clock.advance(by: 1)
            }
            let first = try await client.send(.get, "/rides/bookings?limit=2", token: token).decode(
                BookingListResponse.self)
            #expect(first.bookings.map(\.reference) == [references[2], references[1]])
            #expect(first.nextOffset == 2)
            let second = try await client.send(.get, "/rides/bookings?limit=2&offset=2", token: token)
                .decode(BookingListResponse.self)
            #expect(second.bookings.map(\.reference) == [references[0]])
            #expect(second.nextOffset == nil)
        }
    }
}

/// A random source whose ten-byte draws (a ride reference's digits, and nothing else draws ten
/// bytes) repeat the first one `times` times, so two bookings draw the same reference.
final class RepeatedReferenceDigits: RandomSource, @unchecked Sendable {
    private let base = SeededRandomSource(seed: 11)
    private let lock = NSLock()
    private var first: [UInt8]?
    private var left: Int

    init(times: Int) { left = times }

    var repeatsLeft: Int { lock.withLock { left } }

    func bytes(_ count: Int) -> [UInt8] {
        guard count == 10 else { return base.bytes(count) }
        return lock.withLock {
            guard left > 0 else { return base.bytes(count) }
            left -= 1
            if first == nil { first = base.bytes(count) }
            return first ?? []
        }
    }
}
