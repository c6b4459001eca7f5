import ConciergeModels
import ConciergeTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Security review finding 5 and issue 25: the platform's per-customer limits on every vertical
/// that sells, through HTTP as a client meets them (docs/limits.md).
@Suite struct OrderLimitsHTTPTests {
    static let zurich = TimeZone(identifier: "Europe/Zurich")!

    /// The local "HH:mm" the server names for a deadline `seconds` from now.
    static func clock(_ app: TestApp, in seconds: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zurich
        let at = app.clock.now.addingTimeInterval(Double(seconds))
        let parts = calendar.dateComponents([.hour, .minute, .second], from: at)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0) + ((parts.second ?? 0) > 0 ? 1 : 0)
        return String(format: "%02d:%02d", minute / 60 % 24, minute % 60)
    }

    // MARK: Rides

    @Test func ridesFourthUnpaidBookingKeepsItsCodeAndSentenceAndNowSaysWhenToRetry() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.signedInCustomer()
            let pickup = app.clock.now.addingTimeInterval(3 * 86_400)
            for _ in 1...3 { #expect(try await client.book(token: token, pickupAt: pickup).status == .ok) }
            let fourth = try await client.book(token: token, pickupAt: pickup)
            #expect(fourth.status == .tooManyRequests)
            #expect(fourth.errorBody?.code == "too_many_unpaid_bookings")
            #expect(
                fourth.errorBody?.error
                    == "You have 3 bookings waiting for payment. Pay or cancel one of them before booking another ride."
            )
            let wait = try #require(fourth.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...1800).contains(wait))
        }
    }

    // MARK: Events

    @Test(arguments: TestEngine.all)
    func eventsFourthUnpaidCheckoutIsRefusedWithRetryAfterAndWhatToDo(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        try await app.runWithWorker { client, worker in
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            for seat in ["stalls-A1", "stalls-A2", "stalls-A3"] {
                #expect(try await client.seatCheckout(anna, seats: [seat]).status == .ok)
            }
            let fourth = try await client.seatCheckout(anna, seats: ["stalls-A4"])
            #expect(fourth.status == .tooManyRequests)
            #expect(fourth.headers[.retryAfter] == "900")
            let body = try #require(fourth.errorBody)
            #expect(body.code == "too_many_unpaid_orders")
            #expect(
                body.error
                    == "You have 3 unpaid orders. Pay or cancel one of them, or wait until the first expires at \(Self.clock(app, in: 900)), then try again."
            )
            // Another buyer is not affected; and when the holds lapse, Anna may buy again.
            let ben = try await client.eventsBuyer("ben@example.ch", worker: worker)
            #expect(try await client.seatCheckout(ben, seats: ["stalls-A4"]).status == .ok)
            app.clock.advance(by: 901)
            #expect(try await client.seatCheckout(anna, seats: ["stalls-A5"]).status == .ok)
        }
    }

    @Test(arguments: TestEngine.all)
    func eventsEleventhSeatOfOneShowForOneAccountIsRefused(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine)
        try await app.runWithWorker { client, worker in
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let six = (1...6).map { "stalls-B\($0)" }
            #expect(try await client.seatCheckout(anna, seats: six).status == .ok)
            #expect(try await client.seatCheckout(anna, seats: ["stalls-C1", "stalls-C2", "stalls-C3"]).status == .ok)
            let eleventh = try await client.seatCheckout(anna, seats: ["stalls-C4", "stalls-C5"])
            #expect(eleventh.status == .tooManyRequests)
            #expect(eleventh.errorBody?.code == "too_many_seats_for_show")
            #expect(eleventh.headers[.retryAfter] == "900")
            #expect(eleventh.errorBody?.error.contains("You already have 9 seats for this show") == true)
            #expect(eleventh.errorBody?.error.contains("choose fewer seats") == true)
            // The tenth fits.
            #expect(try await client.seatCheckout(anna, seats: ["stalls-C4"]).status == .ok)
        }
    }

    // MARK: Stays

    /// Registers a guest, opens the verification link from the dev outbox, and signs in.
    static func verifiedGuest(_ client: some TestClientProtocol, _ username: String, worker: MaintenanceService)
        async throws -> Stays.User
    {
        let user = try await client.staysSignUp(username)
        _ = try await client.staysOutbox(containing: "\(username)@example.ch", delivering: worker)
        let mail = try await client.emails(subjectContaining: "Confirm your email").last {
            ($0["to"] as? String) == "\(username)@example.ch"
        }
        let body = try #require(mail?["body"] as? String)
        let range = try #require(body.range(of: "/account/verify-email?token="))
        let token = String(body[range.upperBound...].prefix { !$0.isWhitespace && $0 != "&" })
        // With the guest's session: the one who registered opens the link, and keeps the session
        // (without it the mailbox's first proof would end it, docs/accounts.md).
        let verified = try await client.send(
            .post, "/account/email/verify", json: #"{"token": "\#(token)"}"#, token: user.token)
        #expect(verified.status == .ok)
        return user
    }

    static func stays(_ engine: TestEngine, _ environment: [String: String] = [:], prepay: Bool = false)
        async throws -> TestApp
    {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString).json")
        let json = """
            {"name": "Limits Inn", "roomTypes": [
              {"id": 1, "type": "Individual", "capacity": 1, "rooms": 20, "baseRateCents": 12000},
              {"id": 2, "type": "Double", "capacity": 2, "rooms": 20, "baseRateCents": 18000\(prepay ? #", "paymentPolicy": "prepay""# : "")}]}
            """
        try json.write(to: url, atomically: true, encoding: .utf8)
        return try await TestApp.make(
            engine: engine,
            environment: ["CONCIERGE_BCRYPT_COST": "4", "CONCIERGE_STAYS_HOTEL_PATH": url.path].merging(environment) {
                $1
            })
    }

    @Test(arguments: TestEngine.all)
    func staysPayAtHotelNeedsAVerifiedEmailAndPrepaymentDoesNot(engine: TestEngine) async throws {
        let app = try await Self.stays(engine)
        try await app.runWithWorker { client, worker in
            let fresh = try await client.staysSignUp("fresh.guest")
            let refused = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(room: 2), token: fresh.token,
                as: Stays.Reservation.self)
            #expect(refused.status == .conflict)
            #expect(refused.envelope.errorType == "email_not_verified")
            #expect(refused.envelope.message.contains("confirm your email address first"))
            #expect(refused.envelope.message.contains("paid in advance"))

            let anna = try await Self.verifiedGuest(client, "anna.m", worker: worker)
            let made = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(room: 2), token: anna.token,
                as: Stays.Reservation.self)
            #expect(made.status == .created)
        }
        let prepaid = try await Self.stays(engine, prepay: true)
        try await prepaid.run { client in
            let fresh = try await client.staysSignUp("fresh.guest")
            let held = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(room: 2), token: fresh.token,
                as: Stays.Reservation.self)
            #expect(held.status == .created)
        }
    }

    @Test(arguments: TestEngine.all)
    func staysThirdRoomOfOneTypeOnTheSameNightIsRefused(engine: TestEngine) async throws {
        let app = try await Self.stays(engine)
        try await app.runWithWorker { client, worker in
            let anna = try await Self.verifiedGuest(client, "anna.m", worker: worker)
            for _ in 1...2 {
                let made = try await client.stays(
                    .post, "/appointment", json: StaysFixtures.reserve(room: 2), token: anna.token,
                    as: Stays.Reservation.self)
                #expect(made.status == .created)
            }
            let third = try await client.send(
                .post, "/stays/appointment", json: StaysFixtures.reserve(room: 2, from: "2027-02-02", to: "2027-02-04"),
                token: anna.token)
            #expect(third.status == .tooManyRequests)
            #expect(third.headers[.retryAfter] != nil)
            let envelope = try third.decode(Stays.APIResponse<Stays.Empty>.self)
            #expect(envelope.errorType == "too_many_rooms_per_night")
            #expect(
                envelope.message.hasPrefix(
                    "You already have 2 Double rooms on the night of 2027-02-02, and one guest may have 2 of a kind a night."
                ))
            // Another type, or nights that do not overlap, are fine.
            let single = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(room: 1, guests: 1), token: anna.token,
                as: Stays.Reservation.self)
            #expect(single.status == .created)
            let later = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(room: 2, from: "2027-02-03", to: "2027-02-05"),
                token: anna.token, as: Stays.Reservation.self)
            #expect(later.status == .created)
        }
    }

    @Test(arguments: TestEngine.all)
    func staysFourthUnpaidPrepaidReservationIsRefused(engine: TestEngine) async throws {
        let app = try await Self.stays(engine, ["CONCIERGE_STAYS_MAX_ROOMS_PER_NIGHT": "0"], prepay: true)
        try await app.run { client in
            let anna = try await client.staysSignUp("anna.m")
            for _ in 1...3 {
                let held = try await client.stays(
                    .post, "/appointment", json: StaysFixtures.reserve(room: 2), token: anna.token,
                    as: Stays.Reservation.self)
                #expect(held.status == .created)
            }
            let fourth = try await client.send(
                .post, "/stays/appointment", json: StaysFixtures.reserve(room: 2), token: anna.token)
            #expect(fourth.status == .tooManyRequests)
            #expect(fourth.headers[.retryAfter] == "1800")
            let envelope = try fourth.decode(Stays.APIResponse<Stays.Empty>.self)
            #expect(envelope.errorType == "too_many_unpaid_orders")
            #expect(
                envelope.message
                    == "You have 3 unpaid orders. Pay or cancel one of them, or wait until the first expires at \(Self.clock(app, in: 1800)), then try again."
            )
        }
    }

    // MARK: Per network

    @Test(arguments: TestEngine.all)
    func orderCreatingRoutesAreLimitedPerClientNetworkAcrossVerticals(engine: TestEngine) async throws {
        let app = try await Self.stays(
            engine, ["CONCIERGE_ORDERS_PER_NETWORK_PER_MINUTE": "3", "CONCIERGE_TRUST_PROXY": "true"], prepay: true)
        try await app.run { client in
            let from: (String) -> HTTPFields = { [.init("X-Forwarded-For")!: $0] }
            let guests = [
                try await client.staysSignUp("anna.m"), try await client.staysSignUp("ben.k"),
                try await client.staysSignUp("carla.z"),
            ]
            for guest in guests {
                let held = try await client.stays(
                    .post, "/appointment", json: StaysFixtures.reserve(room: 2), token: guest.token,
                    headers: from("203.0.113.7"), as: Stays.Reservation.self)
                #expect(held.status == .created)
            }
            let dora = try await client.staysSignUp("dora.p")
            let fourth = try await client.send(
                .post, "/stays/appointment", json: StaysFixtures.reserve(room: 2), token: dora.token,
                headers: from("203.0.113.7"))
            #expect(fourth.status == .tooManyRequests)
            #expect(fourth.headers[.retryAfter] == "60")
            let envelope = try fourth.decode(Stays.APIResponse<Stays.Empty>.self)
            #expect(envelope.errorType == "rate_limited")
            #expect(
                envelope.message
                    == "Many orders were placed from your network in the last minute. Try again in 1 minute.")
            // Another network is not affected, and a minute later this one may order again.
            let other = try await client.send(
                .post, "/stays/appointment", json: StaysFixtures.reserve(room: 2), token: dora.token,
                headers: from("198.51.100.4"))
            #expect(other.status == .created)
            app.clock.advance(by: 61)
            let later = try await client.send(
                .post, "/stays/appointment", json: StaysFixtures.reserve(room: 2), token: dora.token,
                headers: from("203.0.113.7"))
            #expect(later.status == .created)
        }
    }
}
