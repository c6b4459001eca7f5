import ConciergeCore
import ConciergeModels
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Holds and orders in /metrics: counted in the database at each scrape (the vertical read from
/// the unit keys, per engine), the lapses the expiry job finds, and refused passwords.
@Suite struct MetricsHoldsTests {
    @Test(arguments: TestEngine.all)
    func aSeatHoldIsActiveAndItsBookingAndOrderAreCountedByState(engine: TestEngine) async throws {
        let app = try await TestApp.make(
            engine: engine, environment: ["CONCIERGE_METRICS_TOKEN": MetricsScrape.token, "CONCIERGE_BCRYPT_COST": "4"])
        try await app.runWithWorker { client, worker in
            let anna = try await client.eventsBuyer("anna@example.ch", worker: worker)
            #expect(try await client.seatCheckout(anna, seats: ["stalls-C7", "stalls-C8"]).status == .ok)
            let held = try await client.scrape()
            #expect(held.value("concierge_holds_active", ["vertical": "events"]) == 1)
            #expect(held.value("concierge_orders", ["vertical": "events"]) == 1)
            #expect(held.value("concierge_bookings", ["vertical": "events", "state": "pending"]) == 1)
        }
    }

    /// A hold no vertical releases first (the events job releases its own bookings' holds): the
    /// platform's expiry job finds it lapsed and counts it.
    @Test(arguments: TestEngine.all)
    func aHoldTheExpiryJobFindsLapsedIsCountedAndNoLongerActive(engine: TestEngine) async throws {
        let app = try await TestApp.withMetrics(engine: engine)
        let database = try await app.configuration.storage.open(logger: TestApp.quiet)
        try await app.runWithWorker { client, worker in
            let holds = SQLHoldStore(database: database)
            try await holds.setCapacity(["stays:room_1:2026-12-01": 1])
            _ = try await holds.place(
                NewHold(
                    id: "hld_metrics", ownerID: "acc_1", items: [HoldItem(unitKey: "stays:room_1:2026-12-01")],
                    createdAt: app.clock.now, expiresAt: app.clock.now.addingTimeInterval(60)))
            let held = try await client.scrape()
            #expect(held.value("concierge_holds_active", ["vertical": "stays"]) == 1)
            #expect(held.value("concierge_holds_lapsed_total") == 0)

            app.clock.advance(by: 120)
            await worker.tick()
            let lapsed = try await client.scrape()
            #expect(lapsed.value("concierge_holds_active", ["vertical": "stays"]) == nil)
            #expect(lapsed.value("concierge_holds_lapsed_total") == 1)
        }
        try await database.close()
    }

    @Test func aWrongPasswordIsAPasswordSignInFailure() async throws {
        let app = try await TestApp.make(
            engine: .sqlite,
            environment: ["CONCIERGE_METRICS_TOKEN": MetricsScrape.token, "CONCIERGE_BCRYPT_COST": "4"])
        try await app.runWithWorker { client, worker in
            _ = try await client.eventsBuyer("anna@example.ch", worker: worker)
            let wrong = try await client.send(
                .post, "/events/api/auth/signin",
                json: #"{"email": "anna@example.ch", "password": "not the passphrase"}"#)
            #expect(wrong.status.code >= 400 && wrong.status.code < 500)
            let scrape = try await client.scrape()
            #expect(scrape.value("concierge_signin_failures_total", ["method": "password"]) == 1)
            #expect(scrape.value("concierge_signin_failures_total", ["method": "sms_code"]) == nil)
        }
    }
}
