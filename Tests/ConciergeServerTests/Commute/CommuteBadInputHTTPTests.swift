import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Bad input gets a 4xx with the error body, never a 5xx, and nothing is half-written;
/// another person's trip is not found.
@Suite struct CommuteBadInputHTTPTests {
    @Test(arguments: TestEngine.all)
    func impossibleTripsAreRefusedWithTheFieldNamed(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        try await app.run { client in
            let token = try await client.commuteToken()
            let cases: [(String, String, String)] = [
                (
                    "latitude 91", try CommuteHTTP.body(["origin": ["latitude": 91, "longitude": 8, "label": "X"]]),
                    "invalid_request"
                ),
                (
                    "longitude -181",
                    try CommuteHTTP.body(["destination": ["latitude": 47, "longitude": -181, "label": "X"]]),
                    "invalid_request"
                ),
                ("unknown zone", try CommuteHTTP.body(["timeZone": "Mars/Olympus_Mons"]), "invalid_request"),
                ("abbreviated zone", try CommuteHTTP.body(["timeZone": "CET"]), "invalid_request"),
                ("25 o'clock", try CommuteHTTP.body(["arrivalTime": "25:00"]), "invalid_request"),
                ("signed hour", try CommuteHTTP.body(["arrivalTime": "+8:30"]), "invalid_request"),
                ("no days", try CommuteHTTP.body(["repeatDays": [String]()]), "invalid_request"),
                ("a day twice", try CommuteHTTP.body(["repeatDays": ["mon", "mon"]]), "invalid_request"),
                ("capitalised day", try CommuteHTTP.body(["repeatDays": ["Mon"]]), "invalid_request"),
                ("buffer 61", try CommuteHTTP.body(["bufferMinutes": 61]), "invalid_request"),
                ("target 1", try CommuteHTTP.body(["onTimeTarget": 1]), "invalid_request"),
                ("fax", try CommuteHTTP.body(["notify": ["channels": ["fax"]]]), "invalid_request"),
                (
                    "same place",
                    try CommuteHTTP.body(["destination": ["latitude": 47.3779, "longitude": 8.5403, "label": "HB"]]),
                    "route_failed"
                ),
                (
                    "another continent",
                    try CommuteHTTP.body(["destination": ["latitude": 40.7, "longitude": -74, "label": "NYC"]]),
                    "route_failed"
                ),
                ("no name", try CommuteHTTP.body(["name": NSNull()]), "invalid_request"),
                ("not JSON", "{", "invalid_request"),
                ("a list", "[]", "invalid_request"),
            ]
            for (name, body, code) in cases {
                let response = try await client.send(.post, "/commute/trips", json: body, token: token)
                #expect(response.status == .badRequest, "\(name)")
                #expect(response.errorBody?.code == code, "\(name)")
            }
            let trips = try await client.send(.get, "/commute/trips", token: token).decode(CommuteTripList.self)
            #expect(trips.trips.isEmpty, "nothing half-written")

            // A change is checked like a new trip, and a refused one changes nothing.
            let trip = try await client.createTrip(token: token)
            for body in [
                #"{"timeZone": "Europe/Atlantis"}"#, #"{"arrivalTime": "24:00"}"#, #"{"arrivalTime": "8:61"}"#,
                #"{"origin": {"latitude": 47.3779, "longitude": 181, "label": "X"}}"#, #"{"bufferMinutes": -1}"#,
                #"{"onTimeTarget": 0.3}"#, #"{"notify": {"leadMinutes": 121}}"#, "{",
            ] {
                let response = try await client.send(.patch, "/commute/trips/\(trip.id)", json: body, token: token)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorBody?.code == "invalid_request", "\(body)")
            }
            #expect(
                try await client.send(.get, "/commute/trips/\(trip.id)", token: token).decode(CommuteTrip.self) == trip)
        }
    }

    @Test(arguments: TestEngine.all)
    func anotherPersonsTripIsNotFoundAndUntouched(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        try await app.run { client in
            let anna = try await client.commuteToken(phone: "+41791110001")
            let ben = try await client.commuteToken(phone: "+41791110002")
            let trip = try await client.createTrip(token: anna)
            let attempts: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/commute/trips/\(trip.id)", nil),
                (.patch, "/commute/trips/\(trip.id)", #"{"name": "Mine now"}"#),
                (.delete, "/commute/trips/\(trip.id)", nil),
                (.get, "/commute/trips/\(trip.id)/recommendation", nil),
                (.get, "/commute/trips/\(trip.id)/observations", nil),
                (
                    .post, "/commute/trips/\(trip.id)/observations",
                    #"{"departedAt": "2027-01-14T08:00:00Z", "arrivedAt": "2027-01-14T08:40:00Z"}"#
                ),
            ]
            for (method, path, body) in attempts {
                let response = try await client.send(method, path, json: body, token: ben)
                #expect(response.status == .notFound, "\(method) \(path)")
                #expect(response.errorBody?.code == "trip_not_found", "\(method) \(path)")
            }
            #expect(
                try await client.send(.get, "/commute/trips/\(trip.id)", token: anna).decode(CommuteTrip.self) == trip)
            #expect(
                try await client.send(.get, "/commute/trips", token: ben).decode(CommuteTripList.self).trips.isEmpty)
            for path in ["/commute/trips", "/commute/notifications", "/commute/trips/\(trip.id)"] {
                let anonymous = try await client.send(.get, path)
                #expect(anonymous.status == .unauthorized && anonymous.errorBody?.code == "session_expired", "\(path)")
                let forged = try await client.send(.get, path, token: "a.b.c")
                #expect(forged.status == .unauthorized, "\(path)")
            }
        }
    }

    @Test func badObservationsDatesAndDevicesAreRefused() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.commuteToken()
            let trip = try await client.createTrip(token: token)
            let observations: [(String, String)] = [
                (
                    #"{"departedAt": "2027-01-14T09:00:00Z", "arrivedAt": "2027-01-14T08:00:00Z"}"#,
                    "arrival_before_departure"
                ),
                (
                    #"{"departedAt": "2027-01-14T09:00:00Z", "arrivedAt": "2027-01-14T09:00:00Z"}"#,
                    "arrival_before_departure"
                ),
                (#"{"departedAt": "yesterday", "arrivedAt": "2027-01-14T09:00:00Z"}"#, "invalid_request"),
                (#"{"departedAt": "2027-01-20T08:00:00Z", "arrivedAt": "2027-01-20T09:00:00Z"}"#, "invalid_request"),
                (#"{"departedAt": "2027-01-10T08:00:00Z", "arrivedAt": "2027-01-11T09:00:00Z"}"#, "invalid_request"),
                (#"{"departedAt": "2027-01-14T08:00:00Z"}"#, "invalid_request"),
                (#"{"departedAt": "2027-01-14T25:00:00Z", "arrivedAt": "2027-01-14T26:00:00Z"}"#, "invalid_request"),
                (#"{"departedAt": "2027-02-30T08:00:00Z", "arrivedAt": "2027-02-30T09:00:00Z"}"#, "invalid_request"),
            ]
            for (body, code) in observations {
                let response = try await client.send(
                    .post, "/commute/trips/\(trip.id)/observations", json: body, token: token)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorBody?.code == code, "\(body)")
            }
            for (date, code) in [
                ("2027-02-31", "invalid_request"), ("tomorrow", "invalid_request"), ("2027-01-14", "date_in_past"),
                ("2027-06-01", "invalid_request"),
            ] {
                let response = try await client.send(
                    .get, "/commute/trips/\(trip.id)/recommendation?date=\(date)", token: token)
                #expect(response.status == .badRequest, "\(date)")
                #expect(response.errorBody?.code == code, "\(date)")
            }
            for body in [
                #"{"platform": "android", "token": "a1b2c3d4e5f60718293a4b5c6d7e8f90", "environment": "sandbox"}"#,
                #"{"platform": "ios", "token": "not hex at all!!", "environment": "sandbox"}"#,
                #"{"platform": "ios", "token": "a1b2c3d4e5f60718293a4b5c6d7e8f90", "environment": "staging"}"#,
            ] {
                let response = try await client.send(.post, "/commute/devices", json: body, token: token)
                #expect(response.status == .badRequest, "\(body)")
            }
            let missing = try await client.send(.delete, "/commute/devices/abcdef0123456789", token: token)
            #expect(missing.status == .notFound && missing.errorBody?.code == "device_not_found")
            for body in [
                #"{"origin": {"latitude": 47.3779, "longitude": 8.5403, "label": "HB"}, "destination": {"latitude": 47.4997, "longitude": 8.7241, "label": "W"}, "arriveBy": "2020-01-01T08:00:00Z"}"#,
                #"{"origin": {"latitude": 47.3779, "longitude": 8.5403, "label": "HB"}, "destination": {"latitude": 47.4997, "longitude": 8.7241, "label": "W"}, "arriveBy": "2027-01-15T12:00:00Z", "route": {"distanceKm": 20, "durationMinutes": 0}}"#,
                #"{"origin": {"latitude": 95, "longitude": 8.5403, "label": "HB"}, "destination": {"latitude": 47.4997, "longitude": 8.7241, "label": "W"}, "arriveBy": "2027-01-15T12:00:00Z"}"#,
                #"{"origin": {"latitude": 47.3779, "longitude": 8.5403, "label": "HB"}, "destination": {"latitude": 47.4997, "longitude": 8.7241, "label": "W"}, "arriveBy": "2027-01-15T24:30:00Z"}"#,
            ] {
                let response = try await client.send(.post, "/commute/predict", json: body, token: token)
                #expect(response.status == .badRequest, "\(body)")
            }
        }
    }
}
