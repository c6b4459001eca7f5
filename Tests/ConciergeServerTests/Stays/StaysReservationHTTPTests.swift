import ConciergeModels
import ConciergeTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import ConciergeServer

/// Searching rooms, reserving with server-side prices, listing and cancelling under the policy,
/// with the emails in the outbox — through HTTP, on both engines.
@Suite struct StaysReservationHTTPTests {
    @Test(arguments: TestEngine.all)
    func aGuestSearchesReservesListsAndCancelsFreeOfCharge(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: StaysFixtures.environment)
        try await app.runWithWorker { client, worker in
            let user = try await client.staysSignUp()
            let rooms = try await client.stays(
                .get, "/rooms?dStartTime=\(StaysFixtures.monday)&dEndTime=\(StaysFixtures.wednesday)&guests=2",
                token: user.token, as: [Stays.RoomHotel].self
            ).require()
            // Individual holds one; Family needs two nights and holds four: Double, Family, Suite.
            #expect(rooms.map(\.roomType) == ["Double", "Family", "Suite"])
            let double = try #require(rooms.first)
            #expect(double.nights == 2 && double.price == 180 && double.taxPrice == 10 && double.totalPrice == 370)
            #expect(double.available == 12 && double.pathImage.hasSuffix("/stays/images/double.svg"))

            let made = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: user.token, as: Stays.Reservation.self)
            #expect(made.status == .created)
            let reservation = try made.require()
            #expect(reservation.price == 360 && reservation.taxPrice == 10 && reservation.totalPrice == 370)
            #expect(reservation.vatIncludedCents == 1318 && reservation.status == "confirmed")
            #expect(reservation.guest.id == Int(user.guestId) && reservation.roomHotel.roomType == "Double")
            #expect(reservation.confirmationCode.count == 8)
            // The rooms left after this one, read from the sale's own updates.
            #expect(reservation.roomHotel.available == 11)

            let after = try await client.stays(
                .get,
                "/rooms?dStartTime=\(StaysFixtures.millis(StaysFixtures.monday))&dEndTime=\(StaysFixtures.wednesday)&guests=2",
                token: user.token, as: [Stays.RoomHotel].self
            ).require()
            #expect(after.first?.available == 11)

            let upcoming = try await client.stays(
                .get, "/appointment/\(user.guestId)?when=upcoming", token: user.token, as: [Stays.Reservation].self)
            #expect(upcoming.data?.map(\.id) == [reservation.id])
            #expect(
                try await client.stays(
                    .get, "/appointment/\(user.guestId)?when=past", token: user.token, as: [Stays.Reservation].self
                ).data?.isEmpty == true)

            let cancelled = try await client.stays(
                .delete, "/appointment/\(reservation.id)", token: user.token, as: Stays.Cancellation.self)
            #expect(cancelled.status == .ok && cancelled.data?.chargedCents == 0)
            #expect(cancelled.data?.reservation.status == "cancelled")
            let again = try await client.stays(.delete, "/appointment/\(reservation.id)", token: user.token)
            #expect(again.status == .conflict && again.envelope.errorType == "already_cancelled")
            let past = try await client.stays(
                .get, "/appointment/\(user.guestId)?when=past", token: user.token, as: [Stays.Reservation].self)
            #expect(past.data?.map(\.status) == ["cancelled"])
            let rooms2 = try await client.stays(
                .get, "/rooms?dStartTime=\(StaysFixtures.monday)&dEndTime=\(StaysFixtures.wednesday)&guests=2",
                token: user.token, as: [Stays.RoomHotel].self
            ).require()
            #expect(rooms2.first?.available == 12)

            let outbox = try await client.staysOutbox(containing: "is cancelled", delivering: worker)
            #expect(outbox.contains(reservation.confirmationCode) && outbox.contains("CHF 370.00"))
            #expect(outbox.contains("VAT CHF 13.18"))
        }
    }

    @Test(arguments: TestEngine.all)
    func aLateCancellationIsChargedTheFirstNightAndAnotherGuestsReservationIsNotFound(engine: TestEngine)
        async throws
    {
        let app = try await TestApp.make(engine: engine, environment: StaysFixtures.environment)
        try await app.run { client in
            let user = try await client.staysSignUp()
            let reservation = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(room: 4, guests: 3), token: user.token,
                as: Stays.Reservation.self
            ).require()
            let other = try await client.staysSignUp("bert")
            #expect(
                try await client.stays(.delete, "/appointment/\(reservation.id)", token: other.token).status
                    == .notFound)
            #expect(
                try await client.stays(.get, "/appointment/\(user.guestId)", token: other.token).status == .notFound)

            // 2027-02-01 15:00 in Zurich is 14:00 UTC; ten hours before it the free window is over.
            app.clock.set(
                Date(timeIntervalSince1970: Double(StaysFixtures.millis(StaysFixtures.monday)) / 1000 - 8 * 3600))
            let refreshed = try await client.stays(
                .post, "/login", json: #"{"username": "anna.m", "password": "correct horse battery"}"#,
                as: Stays.User.self
            ).require()
            let late = try await client.stays(
                .delete, "/appointment/\(reservation.id)", token: refreshed.token, as: Stays.Cancellation.self)
            #expect(late.status == .ok && late.data?.chargedCents == 45_000 && late.data?.charged == 450)
        }
    }

    @Test(arguments: TestEngine.all)
    func theSameIdempotencyKeyAnswersTheFirstReservationAndAFullNightIsSoldOut(engine: TestEngine) async throws {
        let hotel = try StaysHotelFile.write(rooms: 1)
        let app = try await TestApp.make(
            engine: engine, environment: StaysFixtures.environment.merging(["CONCIERGE_STAYS_HOTEL_PATH": hotel]) { $1 }
        )
        try await app.runWithWorker { client, worker in
            let user = try await client.staysSignUp()
            let key: HTTPFields = [.init("Idempotency-Key")!: "stay-1"]
            let first = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: user.token, headers: key,
                as: Stays.Reservation.self)
            let repeated = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: user.token, headers: key,
                as: Stays.Reservation.self)
            #expect(first.status == .created && repeated.status == .created && first.data?.id == repeated.data?.id)

            // Tuesday to Thursday overlaps Tuesday, which is full.
            let overlap = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(from: "2027-02-02", to: "2027-02-04"),
                token: user.token)
            #expect(overlap.status == .conflict && overlap.envelope.errorType == "sold_out")
            let rooms = try await client.stays(
                .get, "/rooms?dStartTime=2027-02-02&dEndTime=2027-02-04&guests=2", token: user.token,
                as: [Stays.RoomHotel].self)
            #expect(rooms.data?.contains { $0.roomType == "Double" } == false)

            // A day later the key is forgotten: the same request is a new one, and the night is full.
            app.clock.advance(by: 25 * 3600)
            await worker.tick()
            let again = try await client.stays(
                .post, "/login", json: #"{"username": "anna.m", "password": "correct horse battery"}"#,
                as: Stays.User.self
            ).require()
            let later = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: again.token, headers: key)
            #expect(later.status == .conflict && later.envelope.errorType == "sold_out")
        }
    }
}

extension StaysReservationHTTPTests {
    /// The key is looked up before the reservation only when a limit refuses: a repeat still
    /// answers the reservation it made, though the cap would refuse a new one.
    @Test(arguments: TestEngine.all)
    func aRepeatWithItsKeyAnswersTheFirstReservationEvenWhenACapNowRefuses(engine: TestEngine) async throws {
        let app = try await TestApp.make(
            engine: engine,
            environment: StaysFixtures.environment.merging(["CONCIERGE_STAYS_MAX_ROOMS_PER_NIGHT": "1"]) { $1 })
        try await app.run { client in
            let user = try await client.staysSignUp()
            let key: HTTPFields = [.init("Idempotency-Key")!: "stay-capped"]
            let first = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: user.token, headers: key,
                as: Stays.Reservation.self)
            let repeated = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: user.token, headers: key,
                as: Stays.Reservation.self)
            #expect(first.status == .created && repeated.status == .created)
            #expect(first.data?.id != nil && first.data?.id == repeated.data?.id)
            // Without the key the same request is a new reservation, and the cap refuses it.
            let another = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: user.token)
            #expect(another.status == .tooManyRequests && another.envelope.errorType == "too_many_rooms_per_night")
        }
    }
}

/// A hotel file with `rooms` rooms of each type, for races and sold-out nights.
enum StaysHotelFile {
    static func write(rooms: Int) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stays-hotel-\(UUID().uuidString).json")
        let json = """
            {"name": "Tiny Inn", "roomTypes": [
              {"id": 1, "type": "Individual", "capacity": 1, "rooms": \(rooms), "baseRateCents": 12000},
              {"id": 2, "type": "Double", "capacity": 2, "rooms": \(rooms), "baseRateCents": 18000}]}
            """
        try json.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
