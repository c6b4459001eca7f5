import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The scheduler keeps everything in the database: a server stopped after planning a trip
/// loses none of its notices, and two instances started on the same database afterwards send
/// each notice once between them.
@Suite struct CommuteRestartHTTPTests {
    static let device = "c1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"

    @Test(arguments: TestEngine.all)
    func aRestartLosesNoNoticeAndTwoInstancesSendEachOnce(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        // The first server: a person, a device, a trip, planned by one tick; then it stops.
        let (token, leaveAt) = try await app.runWithWorker { client, worker in
            let token = try await client.commuteToken()
            _ = try await client.send(
                .post, "/commute/devices",
                json: #"{"platform": "ios", "token": "\#(Self.device)", "environment": "production"}"#, token: token)
            let trip = try await client.createTrip(token: token)
            await worker.tick()
            let plan = try await client.send(.get, "/commute/trips/\(trip.id)/recommendation", token: token)
                .decode(LeaveTimeRecommendation.self)
            return (token, try #require(WireDate.date(from: plan.leaveAt)))
        }

        // Two new servers on the same database, ticking together at each notice's time.
        try await app.sibling().runWithWorker { first, firstWorker in
            try await app.sibling().runWithWorker { _, secondWorker in
                for time in [leaveAt.addingTimeInterval(-10 * 60), leaveAt, leaveAt.addingTimeInterval(60)] {
                    app.clock.set(time)
                    async let a: Void = firstWorker.tick()
                    async let b: Void = secondWorker.tick()
                    _ = await (a, b)
                }
                let notices = try await first.send(.get, "/commute/notifications", token: token)
                    .decode(CommuteNotificationList.self).notifications
                #expect(notices.map(\.kind) == ["leave_now", "leave_soon"])
                let outbox = try await first.send(.get, "/dev/outbox?to=\(Self.device)")
                let listing = try JSONSerialization.jsonObject(with: Data(buffer: outbox.body)) as? [String: Any]
                let messages = listing?["messages"] as? [[String: Any]] ?? []
                #expect(
                    messages.compactMap { $0["subject"] as? String }.sorted() == ["Leave in 10 minutes", "Leave now"])
            }
        }
    }
}
