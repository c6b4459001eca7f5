import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// A rides place id names either end of a trip: the server fills in its coordinates (from the
/// gazetteer offline) and its name when no label is sent; an unknown id is a 400.
@Suite struct CommutePlaceIDHTTPTests {
    static let airport = #"{"placeId": "gz_iata_ZRH"}"#
    static let station = #"{"latitude": 47.3779, "longitude": 8.5403, "label": "Zürich HB"}"#

    @Test func aPlaceIDIsResolvedToItsCoordinatesAndName() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.commuteToken()
            let body = """
                {"name": "Flight", "origin": \(Self.station), "destination": \(Self.airport),
                 "arrivalTime": "07:00", "timeZone": "Europe/Zurich"}
                """
            let trip = try await client.createTrip(body, token: token)
            #expect(trip.destination.placeId == "gz_iata_ZRH")
            #expect(trip.destination.label == "Zurich Airport")
            #expect(trip.destination.latitude == 47.4647 && trip.destination.longitude == 8.54917)

            // Sent coordinates give way to the place id's; a label sent is kept.
            let moved = try await client.send(
                .patch, "/commute/trips/\(trip.id)",
                json: #"{"origin": {"placeId": "gz_geo_2657896", "latitude": 1, "longitude": 1, "label": "Home"}}"#,
                token: token
            ).decode(CommuteTrip.self)
            #expect(moved.origin.label == "Home" && moved.origin.latitude == 47.36667 && moved.origin.longitude == 8.55)

            let predicted = try await client.send(
                .post, "/commute/predict",
                json:
                    #"{"origin": \#(Self.station), "destination": \#(Self.airport), "arriveBy": "2027-01-15T12:00:00Z"}"#,
                token: token)
            #expect(predicted.status == .ok)
            #expect(try predicted.decode(LeaveTimeRecommendation.self).route.distanceKm > 5)
        }
    }

    @Test func anUnknownOrMissingPlaceIsA400NamingTheField() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.commuteToken()
            for (place, field) in [
                (#"{"placeId": "gz_iata_XXX"}"#, "destination.placeId"), (#"{"placeId": ""}"#, "destination.placeId"),
                (#"{"label": "Nowhere"}"#, ""),
            ] {
                let body = """
                    {"name": "Flight", "origin": \(Self.station), "destination": \(place),
                     "arrivalTime": "07:00", "timeZone": "Europe/Zurich"}
                    """
                let response = try await client.send(.post, "/commute/trips", json: body, token: token)
                #expect(response.status == .badRequest, "\(place)")
                #expect(response.errorBody?.code == "invalid_request", "\(place)")
                if !field.isEmpty { #expect(response.errorBody?.error.contains(field) == true, "\(place)") }
            }
            #expect(
                try await client.send(.get, "/commute/trips", token: token).decode(CommuteTripList.self).trips.isEmpty)
        }
    }
}
