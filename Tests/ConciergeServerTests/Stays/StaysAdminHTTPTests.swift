import ConciergeModels
import ConciergeTestSupport
import Foundation
import Testing

@testable import ConciergeServer

/// The front desk's view with the admin token: the hotel as configured, arrivals, departures
/// and occupancy per night — on both engines.
@Suite struct StaysAdminHTTPTests {
    static let admin = "stays-admin-token-0123456789abcdef0123"

    @Test(arguments: TestEngine.all)
    func theFrontDeskSeesTheDaysArrivalsDeparturesAndOccupancy(engine: TestEngine) async throws {
        let app = try await TestApp.make(
            engine: engine, environment: StaysFixtures.environment.merging(["CONCIERGE_ADMIN_TOKEN": Self.admin]) { $1 }
        )
        try await app.run { client in
            let user = try await client.staysSignUp()
            let reservation = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: user.token, as: Stays.Reservation.self
            ).require()

            let arrivals = try await client.stays(
                .get, "/admin/arrivals?date=\(StaysFixtures.monday)", token: Self.admin, as: [Stays.Reservation].self)
            #expect(arrivals.data?.map(\.id) == [reservation.id] && arrivals.data?.first?.guest.lastName == "Meier")
            let departures = try await client.stays(
                .get, "/admin/departures?date=\(StaysFixtures.wednesday)", token: Self.admin,
                as: [Stays.Reservation].self)
            #expect(departures.data?.map(\.id) == [reservation.id])
            #expect(
                try await client.stays(.get, "/admin/arrivals", token: Self.admin, as: [Stays.Reservation].self).data?
                    .isEmpty == true)

            let occupancy = try await client.stays(
                .get, "/admin/occupancy?from=\(StaysFixtures.monday)&to=\(StaysFixtures.wednesday)", token: Self.admin,
                as: [Stays.OccupancyRow].self
            ).require()
            let doubles = occupancy.filter { $0.roomType == "Double" }
            #expect(doubles.map(\.night) == ["2027-02-01", "2027-02-02", "2027-02-03"])
            #expect(doubles.map(\.booked) == [1, 1, 0] && doubles.first?.free == 11)

            let hotel = try await client.send(.get, "/stays/admin/hotel", token: Self.admin)
            #expect(hotel.status == .ok && String(buffer: hotel.body).contains("\"cityTaxCentsPerPersonNight\":250"))
            #expect(try await client.stays(.get, "/admin/hotel", token: user.token).status == .unauthorized)
            #expect(
                try await client.stays(.get, "/admin/occupancy?from=2027-02-10&to=2027-02-01", token: Self.admin).status
                    == .badRequest)
            #expect(
                try await client.stays(.get, "/admin/arrivals?date=monday", token: Self.admin).status == .badRequest)
        }
    }

    @Test func theExampleHotelFileLoadsAndABrokenOneStopsTheStart() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "docs/stays-hotel.example.json")
        let configuration = try StaysConfigurationProbe.parse(["CONCIERGE_STAYS_HOTEL_PATH": example.path])
        #expect(configuration.hotel.closures.count == 1 && configuration.freeCancelHours == 24)
        #expect(throws: ConfigurationError.self) {
            try StaysConfigurationProbe.parse(["CONCIERGE_STAYS_HOTEL_PATH": "/nonexistent/hotel.json"])
        }
        #expect(throws: ConfigurationError.self) {
            try StaysConfigurationProbe.parse(["CONCIERGE_STAYS_FREE_CANCEL_HOURS": "soon"])
        }
    }
}
