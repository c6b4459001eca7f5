import ConciergeModels
import ConciergeTestSupport
import Foundation
import Testing

/// The last room on the same nights, wanted by two guests at once: one reservation and one
/// `sold_out` — on PostgreSQL across two server instances, and on SQLite.
@Suite struct StaysRaceTests {
    @Test(arguments: TestEngine.all)
    func twoGuestsRacingForTheLastRoomGetOneReservation(engine: TestEngine) async throws {
        let hotel = try StaysHotelFile.write(rooms: 1)
        let app = try await TestApp.make(
            engine: engine, environment: StaysFixtures.environment.merging(["CONCIERGE_STAYS_HOTEL_PATH": hotel]) { $1 }
        )
        let sibling = try app.sibling()
        try await app.run { first in
            try await sibling.run { second in
                let anna = try await first.staysSignUp("anna")
                let bert = try await second.staysSignUp("bert")
                async let a = first.stays(.post, "/appointment", json: StaysFixtures.reserve(), token: anna.token)
                async let b = second.stays(.post, "/appointment", json: StaysFixtures.reserve(), token: bert.token)
                let statuses = [try await a, try await b].map(\.status.code).sorted()
                #expect(statuses == [201, 409])
                let rooms = try await first.stays(
                    .get, "/rooms?dStartTime=\(StaysFixtures.monday)&dEndTime=\(StaysFixtures.wednesday)&guests=2",
                    token: anna.token, as: [Stays.RoomHotel].self)
                #expect(rooms.data?.isEmpty == true)
            }
        }
    }

    /// Prepaid, the last room is held by one of them through the platform's holds.
    @Test(arguments: TestEngine.all)
    func twoGuestsRacingForTheLastPrepaidRoomGetOneHold(engine: TestEngine) async throws {
        let app = try await StaysPrepay.app(engine, rooms: 1)
        let sibling = try app.sibling()
        try await app.run { first in
            try await sibling.run { second in
                let anna = try await first.staysSignUp("anna")
                let bert = try await second.staysSignUp("bert")
                async let a = first.stays(.post, "/appointment", json: StaysFixtures.reserve(), token: anna.token)
                async let b = second.stays(.post, "/appointment", json: StaysFixtures.reserve(), token: bert.token)
                let answers = [try await a, try await b]
                #expect(answers.map(\.status.code).sorted() == [201, 409])
                #expect(answers.contains { $0.envelope.errorType == "sold_out" })
                #expect(try await first.staysFree("Double", token: anna.token) == 0)
            }
        }
    }
}
