import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The scheduler, ticked by the test with the test clock: "leave in N minutes" and "leave now"
/// once each through the dev outbox, a moved leave time announced, at once when a trip is made
/// after its lead time, nothing on holidays.
@Suite struct CommuteSchedulerHTTPTests {
    static let device = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"

    static func notices(_ client: any TestClientProtocol, token: String) async throws -> [CommuteNotification] {
        try await client.send(.get, "/commute/notifications", token: token).decode(CommuteNotificationList.self)
            .notifications
    }

    @Test(arguments: TestEngine.all)
    func leaveSoonAndLeaveNowGoOutOnceEachThroughThePersonsDevice(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        try await app.runWithWorker { client, worker in
            let token = try await client.commuteToken()
            let registered = try await client.send(
                .post, "/commute/devices",
                json: #"{"platform": "ios", "token": "\#(Self.device)", "environment": "sandbox"}"#, token: token)
            #expect(registered.status == .created)
            let trip = try await client.createTrip(token: token)
            let plan = try await client.send(.get, "/commute/trips/\(trip.id)/recommendation", token: token)
                .decode(LeaveTimeRecommendation.self)
            let leaveAt = try #require(WireDate.date(from: plan.leaveAt))
            #expect(leaveAt.timeIntervalSince(app.clock.now) > 15 * 60, "the first notice is still ahead")

            await worker.tick()
            #expect(try await Self.notices(client, token: token).isEmpty)

            app.clock.set(leaveAt.addingTimeInterval(-10 * 60))
            await worker.tick()
            await worker.tick()
            let soon = try await Self.notices(client, token: token)
            #expect(soon.map(\.kind) == ["leave_soon"])
            #expect(soon.first?.title == "Leave in 10 minutes" && soon.first?.channels == ["push"])

            app.clock.set(leaveAt)
            await worker.tick()
            app.clock.advance(by: 120)
            await worker.tick()
            let both = try await Self.notices(client, token: token)
            #expect(both.map(\.kind) == ["leave_now", "leave_soon"])

            // Both went out as pushes to the device (the dev outbox records them).
            let outbox = try await client.send(.get, "/dev/outbox?to=\(Self.device)")
            let listing = try JSONSerialization.jsonObject(with: Data(buffer: outbox.body)) as? [String: Any]
            let messages = listing?["messages"] as? [[String: Any]] ?? []
            #expect(messages.count == 2)

            // After the arrival, the next occurrence (Monday) is planned and nothing repeats.
            app.clock.advance(by: 3600)
            await worker.tick()
            #expect(try await Self.notices(client, token: token).count == 2)
        }
    }

    @Test func aTripMadeAfterItsLeadTimeGetsItsNoticeAtOnceAndAMoveIsAnnounced() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.runWithWorker { client, worker in
            let token = try await client.commuteToken()
            // 09:00 now; arriving 09:45 means leaving within minutes.
            let trip = try await client.createTrip(try CommuteHTTP.body(["arrivalTime": "09:45"]), token: token)
            await worker.tick()
            let first = try await Self.notices(client, token: token)
            #expect(first.map(\.kind) == ["leave_soon"], "\(first.map(\.title))")

            // The arrival moves 20 minutes earlier: the new leave time is announced.
            _ = try await client.send(
                .patch, "/commute/trips/\(trip.id)", json: #"{"arrivalTime": "09:40", "bufferMinutes": 20}"#,
                token: token)
            await worker.tick()
            let notices = try await Self.notices(client, token: token)
            let kinds = notices.map(\.kind)
            #expect(kinds.first == "leave_now" || kinds.first == "leave_time_changed", "\(notices)")
            #expect(kinds.count == 2)
        }
    }

    @Test func holidaysAreSkipped() async throws {
        // New Year's Day 2027 is a Friday: a Friday-only trip's next occurrence is a week later.
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_798_758_000))  // 2027-01-01T07:00:00Z
        let app = try await TestApp.make(engine: .sqlite, clock: clock)
        try await app.runWithWorker { client, worker in
            let token = try await client.commuteToken()
            let trip = try await client.createTrip(try CommuteHTTP.body(["repeatDays": ["fri"]]), token: token)
            let plan = try await client.send(.get, "/commute/trips/\(trip.id)/recommendation", token: token)
                .decode(LeaveTimeRecommendation.self)
            #expect(plan.arriveBy == "2027-01-08T09:00:00.000Z")
            clock.set(Date(timeIntervalSince1970: 1_798_761_000))  // 07:50Z, the holiday's leave time
            await worker.tick()
            #expect(try await Self.notices(client, token: token).isEmpty)
        }
    }
}
