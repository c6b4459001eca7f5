import ConciergeCore
import ConciergeModels
import ConciergeProviders
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// A trip's Live Activity through the server: the app registers ActivityKit's push token, the
/// scheduler (ticked with the test clock) pushes the trip's state to it as `liveactivity` in the
/// last hour — throttled to one per 30 s — and ends it after the arrival; APNs calling the
/// token gone forgets it. Requests go to a transport answering like APNs.
@Suite struct CommuteLiveActivityHTTPTests {
    /// ActivityKit's tokens are longer than device tokens.
    static let activityToken = String(repeating: "80c1d2e3f4a5b6c7", count: 10)
    static let goneToken = String(repeating: "0fe1d2c3b4a59687", count: 10)

    /// Answers like APNs: 410 `Unregistered` for `goneToken`, 200 for any other.
    actor APNs: ProviderHTTPTransport {
        private(set) var requests: [ProviderHTTPRequest] = []

        func send(_ request: ProviderHTTPRequest, timeout: Duration) async throws -> ProviderHTTPResponse {
            requests.append(request)
            if request.url.hasSuffix(CommuteLiveActivityHTTPTests.goneToken) {
                return ProviderHTTPResponse(
                    status: 410, body: Data(#"{"reason":"Unregistered","timestamp":1800000000000}"#.utf8))
            }
            return ProviderHTTPResponse(status: 200, headers: [("apns-id", UUID().uuidString.lowercased())])
        }
    }

    /// One pushed request's `aps`.
    static func aps(_ request: ProviderHTTPRequest) throws -> [String: Any] {
        let payload = try #require(try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any])
        #expect(payload.count == 1, "a Live Activity push has only aps")
        return try #require(payload["aps"] as? [String: Any])
    }

    static func contentState(_ aps: [String: Any]) throws -> CommuteLiveActivityState {
        let object = try #require(aps["content-state"] as? [String: Any])
        return try JSONDecoder().decode(
            CommuteLiveActivityState.self, from: try JSONSerialization.data(withJSONObject: object))
    }

    static func register(_ client: any TestClientProtocol, trip: String, token: String, body: String) async throws
        -> TestResponse
    {
        try await client.send(.put, "/commute/trips/\(trip)/live-activity", json: body, token: token)
    }

    static func code(_ response: TestResponse) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])?["code"] as? String
    }

    @Test(arguments: TestEngine.all)
    func theActivityFollowsTheTripThrottledAndEndsAfterTheArrival(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: try CommuteApplePushHTTPTests.settings())
        let apns = APNs()
        try await CommuteConfiguration.$override.withValue(.init(apnsTransport: apns)) {
            try await app.runWithWorker { client, worker in
                let token = try await client.commuteToken()
                let trip = try await client.createTrip(token: token)
                let registered = try await Self.register(
                    client, trip: trip.id, token: token,
                    body: #"{"token": "\#(Self.activityToken.uppercased())", "environment": "sandbox"}"#)
                #expect(registered.status == .ok)
                let activity = try registered.decode(CommuteLiveActivity.self)
                #expect(activity.tripId == trip.id && activity.token == Self.activityToken)

                // 09:00, arriving at 10:00: already the last hour, so the first update goes at once.
                let start = app.clock.now
                await worker.tick()
                let first = try #require(await apns.requests.first)
                #expect(first.url == "https://api.sandbox.push.apple.com/3/device/\(Self.activityToken)")
                #expect(first.header("apns-push-type") == "liveactivity")
                #expect(first.header("apns-topic") == "com.example.commute.push-type.liveactivity")
                #expect(first.header("apns-priority") == "10")
                let aps = try Self.aps(first)
                #expect(aps["event"] as? String == "update")
                #expect(aps["timestamp"] as? Int == Int(start.timeIntervalSince1970))
                #expect(aps["stale-date"] as? Int == Int(start.timeIntervalSince1970) + 600)
                #expect(aps["alert"] == nil, "the leave notices are the alerts")
                let state = try Self.contentState(aps)
                let plan = try await client.send(.get, "/commute/trips/\(trip.id)/recommendation", token: token)
                    .decode(LeaveTimeRecommendation.self)
                #expect(state.status == "planned" && state.tripName == "Office" && state.destination == "Winterthur")
                #expect(state.leaveAt == plan.leaveAt && state.arriveBy == plan.arriveBy)
                #expect(state.travelMinutes == plan.travelMinutes + plan.weatherMinutes)
                let leaveAt = try #require(WireDate.date(from: plan.leaveAt))
                #expect(
                    state.expectedArrival
                        == WireDate.string(from: leaveAt.addingTimeInterval(Double(state.travelMinutes) * 60)))

                // A change 10 s later is held back by the throttle and goes out at 30 s.
                app.clock.advance(by: 10)
                let changed = try await client.send(
                    .patch, "/commute/trips/\(trip.id)", json: #"{"arrivalTime": "10:10"}"#, token: token)
                #expect(changed.status == .ok)
                await worker.tick()
                #expect(await apns.requests.count == 1, "throttled")
                app.clock.set(start.addingTimeInterval(30))
                await worker.tick()
                #expect(await apns.requests.count == 2)
                let moved = try Self.contentState(try Self.aps(try #require(await apns.requests.last)))
                let replanned = try await client.send(
                    .get, "/commute/trips/\(trip.id)/recommendation", token: token
                ).decode(LeaveTimeRecommendation.self)
                #expect(moved.leaveAt == replanned.leaveAt && moved.arriveBy == replanned.arriveBy)
                let newLeaveAt = try #require(WireDate.date(from: moved.leaveAt))
                #expect(newLeaveAt > leaveAt)

                // Each notice shows on the activity.
                app.clock.set(newLeaveAt.addingTimeInterval(-10 * 60))
                await worker.tick()
                #expect(
                    try Self.contentState(try Self.aps(try #require(await apns.requests.last))).status == "leave_soon")
                app.clock.set(newLeaveAt)
                await worker.tick()
                let now = try Self.aps(try #require(await apns.requests.last))
                #expect(try Self.contentState(now).status == "leave_now")
                let arriveBy = try #require(WireDate.date(from: replanned.arriveBy))
                #expect(now["stale-date"] as? Int == Int(arriveBy.timeIntervalSince1970), "stale after the arrival")
                let beforeEnd = await apns.requests.count

                // After the arrival: the end event, once.
                app.clock.set(arriveBy)
                await worker.tick()
                app.clock.advance(by: 3600)
                await worker.tick()
                let requests = await apns.requests
                #expect(requests.count == beforeEnd + 1)
                let end = try Self.aps(try #require(requests.last))
                #expect(end["event"] as? String == "end")
                #expect(end["dismissal-date"] as? Int == Int(arriveBy.timeIntervalSince1970) + 900)
                #expect(try Self.contentState(end).status == "ended")
                #expect(Set(requests.map { $0.header("apns-push-type") }) == ["liveactivity"])

                let notices = try await CommuteSchedulerHTTPTests.notices(client, token: token)
                #expect(
                    notices.map(\.kind) == [
                        "live_activity_end", "live_activity_update", "leave_now", "live_activity_update",
                        "leave_soon", "live_activity_update", "live_activity_update",
                    ])
                #expect(
                    notices.filter { $0.kind.hasPrefix("live_activity") }.allSatisfy { $0.channels == ["liveactivity"] }
                )
                #expect(notices.last?.leaveAt == plan.leaveAt)
            }
        }
    }

    @Test(arguments: TestEngine.all)
    func aTokenAPNsCallsGoneIsForgotten(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: try CommuteApplePushHTTPTests.settings())
        let apns = APNs()
        try await CommuteConfiguration.$override.withValue(.init(apnsTransport: apns)) {
            try await app.runWithWorker { client, worker in
                let token = try await client.commuteToken()
                let trip = try await client.createTrip(token: token)
                let registered = try await Self.register(
                    client, trip: trip.id, token: token,
                    body: #"{"token": "\#(Self.goneToken)", "environment": "production"}"#)
                #expect(registered.status == .ok)
                await worker.tick()
                #expect(
                    await apns.requests.map(\.url) == ["https://api.push.apple.com/3/device/\(Self.goneToken)"])

                // Forgotten: nothing to unregister, and the next re-plan sends nothing.
                let delete = try await client.send(.delete, "/commute/trips/\(trip.id)/live-activity", token: token)
                #expect(delete.status == .notFound && Self.code(delete) == "live_activity_not_found")
                app.clock.advance(by: 300)
                await worker.tick()
                #expect(await apns.requests.count == 1)
            }
        }
    }

    @Test func badTokensAndOtherPeoplesTripsAreRefused() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let token = try await client.commuteToken()
            let trip = try await client.createTrip(token: token)
            for bad in [
                #"{"token": "not-hex-at-all-not-hex-at-all", "environment": "sandbox"}"#,
                #"{"token": "abc", "environment": "sandbox"}"#,
                #"{"token": "\#(Self.activityToken)a", "environment": "sandbox"}"#,
                #"{"token": "\#(String(repeating: "ab", count: 201))", "environment": "sandbox"}"#,
                #"{"token": "\#(Self.activityToken)", "environment": "staging"}"#,
                #"{"environment": "sandbox"}"#,
            ] {
                let response = try await Self.register(client, trip: trip.id, token: token, body: bad)
                #expect(response.status == .badRequest, "\(bad)")
                #expect(Self.code(response) == "invalid_request", "\(bad)")
            }
            let good = #"{"token": "\#(Self.activityToken)", "environment": "sandbox"}"#

            // Someone else's trip is not found, to register or to unregister.
            let other = try await client.commuteToken(phone: "+41797654321")
            let foreign = try await Self.register(client, trip: trip.id, token: other, body: good)
            #expect(foreign.status == .notFound && Self.code(foreign) == "trip_not_found")
            let foreignDelete = try await client.send(
                .delete, "/commute/trips/\(trip.id)/live-activity", token: other)
            #expect(foreignDelete.status == .notFound && Self.code(foreignDelete) == "trip_not_found")
            let unknown = try await Self.register(client, trip: "trp_nope", token: token, body: good)
            #expect(unknown.status == .notFound)
            #expect(try await Self.register(client, trip: trip.id, token: "", body: good).status == .unauthorized)

            // Registered, then forgotten once.
            #expect(try await Self.register(client, trip: trip.id, token: token, body: good).status == .ok)
            let path = "/commute/trips/\(trip.id)/live-activity"
            #expect(try await client.send(.delete, path, token: token).status == .noContent)
            let again = try await client.send(.delete, path, token: token)
            #expect(again.status == .notFound && Self.code(again) == "live_activity_not_found")

            // Without notices nothing would update the activity.
            let quiet = try await client.createTrip(
                try CommuteHTTP.body(["notify": ["enabled": false]]), token: token)
            let refused = try await Self.register(client, trip: quiet.id, token: token, body: good)
            #expect(refused.status == .conflict && Self.code(refused) == "notifications_disabled")
        }
    }
}
