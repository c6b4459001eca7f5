import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Two instances on one PostgreSQL: a seat held and sold through one shows so on the other's seat
/// map at once, through `NOTIFY concierge_seats`, although the other keeps seat states a minute.
@Suite struct EventsSeatNoticesTests {
    @Test(.enabled(if: TestEngine.all.contains(.postgres)))
    func aSeatSoldOnOneInstanceShowsSoldOnTheOtherWithoutWaitingForItsCache() async throws {
        let app = try await EventsTestApp.make(.postgres, ["CONCIERGE_EVENTS_SEAT_STATES_MAX_AGE_MS": "60000"])
        try await app.runWithWorker { first, worker in
            let anna = try await first.eventsBuyer("anna@example.ch", worker: worker)
            try await app.sibling().run { second in
                #expect(try await second.eventSeats()["stalls-G1"]?.status == .available)  // kept by the second
                let held = try await first.seatCheckout(anna, seats: ["stalls-G1"])
                try #require(held.status == .ok)
                #expect(try await Self.status(of: "stalls-G1", on: second, becomes: .reserved))
                let checkout = try held.decode(Events.SeatCheckoutResponse.self)
                _ = try await first.checkout(checkout.url, outcome: "paid")
                #expect(try await Self.status(of: "stalls-G1", on: second, becomes: .sold))
            }
        }
    }

    /// Polls the seat map for up to 20 s: well below the cache's minute, so only a notice can do it.
    static func status(of seat: String, on client: any TestClientProtocol, becomes status: Events.Seat.Status)
        async throws -> Bool
    {
        // Generous for a loaded CI machine: the second instance keeps seat states for 60 s, so
        // seeing the change within 20 s still proves only the notice told it.
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if try await client.eventSeats()[seat]?.status == status { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return false
    }
}
