import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Trips, recommendations and observations over HTTP, on both engines, with the offline
/// default (the estimator with its rush-hour profile, weather unknown).
@Suite struct CommuteTripsHTTPTests {
    @Test(arguments: TestEngine.all)
    func aTripIsSavedPlannedObservedChangedAndDeleted(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        try await app.run { client in
            let token = try await client.commuteToken()
            let trip = try await client.createTrip(token: token)
            #expect(trip.repeatDays == ["mon", "tue", "wed", "thu", "fri"])
            #expect(trip.bufferMinutes == 5 && trip.onTimeTarget == 0.9 && trip.notify.enabled)

            let listed = try await client.send(.get, "/commute/trips", token: token).decode(CommuteTripList.self)
            #expect(listed.trips == [trip])

            let response = try await client.send(.get, "/commute/trips/\(trip.id)/recommendation", token: token)
            #expect(response.status == .ok)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            #expect(json?["weather"] is NSNull, "unknown weather is null, as the contract says")
            let plan = try response.decode(LeaveTimeRecommendation.self)
            #expect(plan.tripId == trip.id)
            #expect(plan.arriveBy == "2027-01-15T09:00:00.000Z")
            #expect(plan.source == "heuristic" && plan.route.provider == "estimator")
            #expect(plan.weatherMinutes == 0 && plan.weather == nil)
            let leave = try #require(WireDate.date(from: plan.leaveAt))
            let arrive = try #require(WireDate.date(from: plan.arriveBy))
            let minutes = Int(arrive.timeIntervalSince(leave) / 60)
            #expect(minutes >= plan.travelMinutes + plan.bufferMinutes + plan.personalMinutes)
            #expect((25...60).contains(plan.travelMinutes))
            #expect(plan.onTimeProbability >= 0.9)

            // A weekday date, explicitly; Saturday is not a repeat day but may still be asked.
            let monday = try await client.send(
                .get, "/commute/trips/\(trip.id)/recommendation?date=2027-01-18", token: token)
            #expect(try monday.decode(LeaveTimeRecommendation.self).arriveBy == "2027-01-18T09:00:00.000Z")

            let observed = try await client.send(
                .post, "/commute/trips/\(trip.id)/observations",
                json: #"{"departedAt": "2027-01-14T08:15:00Z", "arrivedAt": "2027-01-14T09:02:00Z"}"#, token: token)
            #expect(observed.status == .created)
            let observation = try observed.decode(CommuteObservation.self)
            #expect(observation.travelMinutes == 47)
            let observations = try await client.send(.get, "/commute/trips/\(trip.id)/observations", token: token)
            #expect(try observations.decode(CommuteObservationList.self).observations == [observation])

            let patched = try await client.send(
                .patch, "/commute/trips/\(trip.id)", json: #"{"arrivalTime": "08:30", "bufferMinutes": 0}"#,
                token: token)
            #expect(patched.status == .ok)
            let changed = try patched.decode(CommuteTrip.self)
            #expect(changed.arrivalTime == "08:30" && changed.bufferMinutes == 0 && changed.name == trip.name)

            #expect(try await client.send(.delete, "/commute/trips/\(trip.id)", token: token).status == .noContent)
            let gone = try await client.send(.get, "/commute/trips/\(trip.id)", token: token)
            #expect(gone.status == .notFound && gone.errorBody?.code == "trip_not_found")
        }
    }

    @Test func observationsTeachTheTripsBiasAndOutliersDoNot() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.commuteToken()
            let trip = try await client.createTrip(token: token)
            let probe = try await client.createTrip(token: token)
            let before = try await client.send(.get, "/commute/trips/\(trip.id)/recommendation", token: token)
                .decode(LeaveTimeRecommendation.self)
            func observe(_ tripID: String, departed: Date, minutes: Double) async throws -> CommuteObservation {
                let arrived = departed.addingTimeInterval(minutes * 60)
                return try await client.send(
                    .post, "/commute/trips/\(tripID)/observations",
                    json:
                        #"{"departedAt": "\#(WireDate.string(from: departed))", "arrivedAt": "\#(WireDate.string(from: arrived))"}"#,
                    token: token
                ).decode(CommuteObservation.self)
            }
            // Ten weekday runs at 08:15 Zurich time, each 8 minutes slower than the planner
            // expected, and one a 90-minute jam.
            for (index, daysAgo) in [1, 2, 3, 4, 7, 8, 9, 10, 11, 14].enumerated() {
                let departed = Date(timeIntervalSince1970: 1_800_000_000 - Double(daysAgo) * 86_400 - 2700)
                let expected = try await observe(probe.id, departed: departed, minutes: 30).expectedMinutes
                let run = try await observe(trip.id, departed: departed, minutes: expected + (index == 2 ? 90 : 8))
                #expect(abs(run.travelMinutes - run.expectedMinutes - (index == 2 ? 90 : 8)) < 0.2)
            }
            let after = try await client.send(.get, "/commute/trips/\(trip.id)/recommendation", token: token)
                .decode(LeaveTimeRecommendation.self)
            let personal = try #require(after.factors.first { $0.code == "personal" })
            // Robust: the bias is about 8 minutes (shrunk a little for ten runs), not the mean
            // of 15 the jam would make.
            #expect((6...8).contains(personal.minutes), "bias \(personal.minutes)")
            #expect(after.leaveAt < before.leaveAt)
        }
    }
}
