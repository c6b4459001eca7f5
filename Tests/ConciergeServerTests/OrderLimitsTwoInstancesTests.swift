import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// The per-customer caps count in the database, so they hold for a burst of requests spread over
/// two instances on one PostgreSQL (or one SQLite server).
@Suite struct OrderLimitsTwoInstancesTests {
    @Test(arguments: TestEngine.all)
    func aBurstOfCheckoutsOverTwoInstancesOpensNoMoreThanTheUnpaidCap(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(engine, ["CONCIERGE_ORDERS_PER_NETWORK_PER_MINUTE": "0"])
        try await app.runWithWorker { first, worker in
            try await (engine == .postgres ? try app.sibling() : app).run { second in
                let anna = try await first.eventsBuyer("anna@example.ch", worker: worker)
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for n in 1...8 {
                        let client = n.isMultiple(of: 2) ? first : second
                        group.addTask { try await client.seatCheckout(anna, seats: ["stalls-D\(n)"]).status }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == .ok }.count == 3, "\(statuses)")
                #expect(statuses.filter { $0 == .tooManyRequests }.count == 5, "\(statuses)")
                let open = try await first.eventBookings(anna).filter { $0.status == .pending }
                #expect(open.count == 3)
            }
        }
    }
}

extension OrderLimitsTwoInstancesTests {
    @Test(arguments: TestEngine.all)
    func aBurstOfSeatCheckoutsOverTwoInstancesHoldsNoMoreSeatsOfTheShowThanTheCap(engine: TestEngine) async throws {
        let app = try await EventsTestApp.make(
            engine, ["CONCIERGE_ORDERS_PER_NETWORK_PER_MINUTE": "0", "CONCIERGE_EVENTS_MAX_UNPAID_ORDERS": "0"])
        try await app.runWithWorker { first, worker in
            try await (engine == .postgres ? try app.sibling() : app).run { second in
                let anna = try await first.eventsBuyer("anna@example.ch", worker: worker)
                // Six checkouts of three seats each: at most three of them (nine seats) fit under 10.
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for n in 0..<6 {
                        let client = n.isMultiple(of: 2) ? first : second
                        let seats = (1...3).map { "stalls-E\(n * 3 + $0)" }
                        group.addTask { try await client.seatCheckout(anna, seats: seats).status }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == .ok }.count == 3, "\(statuses)")
                let held = try await first.eventBookings(anna).filter { $0.status == .pending }
                #expect(held.count == 3)
            }
        }
    }

    @Test(arguments: TestEngine.all)
    func aBurstOfPrepaidReservationsOverTwoInstancesOpensNoMoreThanTheUnpaidCap(engine: TestEngine) async throws {
        let app = try await SellingVertical.stays.app(engine, limits: ["CONCIERGE_STAYS_MAX_UNPAID_ORDERS": "3"])
        try await app.runWithWorker { first, worker in
            try await (engine == .postgres ? try app.sibling() : app).run { second in
                let token = try await SellingVertical.stays.customer("burst", client: first, worker: worker)
                let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for unit in 0..<8 {
                        let client = unit.isMultiple(of: 2) ? first : second
                        group.addTask {
                            (try? await SellingVertical.stays.order(unit: unit, token: token, client: client)) != nil
                        }
                    }
                    return try await group.reduce(into: [Bool]()) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 }.count == 3, "\(outcomes)")
            }
        }
    }
}
