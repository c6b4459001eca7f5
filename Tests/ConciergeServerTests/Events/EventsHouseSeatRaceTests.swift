import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The box office blocking two seats while buyers on two instances of one PostgreSQL race for
/// them: either the house gets both seats or one buyer does, never a mix and never both.
@Suite struct EventsHouseSeatRaceTests {
    struct Counts: Decodable {
        let reserved: Int
        let sold: Int
        let house: Int
    }

    @Test(.enabled(if: TestEngine.all.contains(.postgres)))
    func blockingAndBuyingTheSameSeatsAtOnceGivesThemToOneSide() async throws {
        let app = try await EventsTestApp.make(.postgres, ["CONCIERGE_ADMIN_TOKEN": TestLayouts.admin])
        let seats = ["stalls-F5", "stalls-F6"]
        try await app.runWithWorker { first, worker in
            var tokens: [String] = []
            for n in 0..<8 { tokens.append(try await first.eventsBuyer("buyer\(n)@example.ch", worker: worker)) }
            let buyers = tokens
            try await app.sibling().run { second in
                let (bought, blocked) = try await withThrowingTaskGroup(of: (Bool, HTTPResponse.Status).self) {
                    group in
                    group.addTask {
                        (
                            true,
                            try await EventsHouseSeatsHTTPTests.houseSeats(second, .post, show: "shw_demo_1", seats)
                                .status
                        )
                    }
                    for (n, token) in buyers.enumerated() {
                        let client = n.isMultiple(of: 2) ? first : second
                        group.addTask { (false, try await client.seatCheckout(token, seats: seats).status) }
                    }
                    var bought = 0
                    var blocked: HTTPResponse.Status = .internalServerError
                    for try await (isAdmin, status) in group {
                        if isAdmin {
                            blocked = status
                        } else if status == .ok {
                            bought += 1
                        } else {
                            #expect(status == .conflict)
                        }
                    }
                    return (bought, blocked)
                }
                #expect(blocked == .ok || blocked == .conflict)
                #expect(bought + (blocked == .ok ? 1 : 0) == 1)
                let counts = try await first.send(
                    .get, "/events/api/admin/shows/shw_demo_1/counts", token: TestLayouts.admin
                ).decode(Counts.self)
                if blocked == .ok {
                    #expect(counts.house == 2 && counts.reserved == 0 && counts.sold == 0)
                } else {
                    #expect(counts.house == 0 && counts.reserved == 2)
                }
            }
        }
    }
}
