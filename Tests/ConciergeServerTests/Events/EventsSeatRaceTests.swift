import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Many buyers racing for the same two seats through two server instances on one PostgreSQL:
/// exactly one order gets them, every other buyer hears 409 and holds nothing.
@Suite struct EventsSeatRaceTests {
    @Test(.enabled(if: TestEngine.all.contains(.postgres)))
    func twelveBuyersOnTwoInstancesRacingForTheSameSeatsGetThemOnce() async throws {
        let app = try await EventsTestApp.make(.postgres)
        try await app.runWithWorker { first, worker in
            var tokens: [String] = []
            for n in 0..<12 { tokens.append(try await first.eventsBuyer("buyer\(n)@example.ch", worker: worker)) }
            let buyers = tokens
            try await app.sibling().run { second in
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for (n, token) in buyers.enumerated() {
                        let client = n.isMultiple(of: 2) ? first : second
                        group.addTask {
                            try await client.seatCheckout(token, seats: ["stalls-F5", "stalls-F6"]).status
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == .ok }.count == 1)
                #expect(statuses.filter { $0 == .conflict }.count == 11)
                let seats = try await second.eventSeats()
                #expect(seats["stalls-F5"]?.status == .reserved && seats["stalls-F6"]?.status == .reserved)
                #expect(seats.values.filter { $0.status != .available }.count == 2)
            }
        }
    }
}
