import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Logging
import Testing

/// The last seat, wanted by 50 people at once: exactly one gets it, the other 49 hear
/// `hold_unavailable`, and the unit is never more than full — on PostgreSQL across two server
/// instances (two connection pools on one database), and on SQLite.
@Suite struct HoldRaceTests {
    static let lastSeat = "events:show_1:seat_Z99"
    static let logger = Logger(label: "concierge.tests.hold-race")

    /// Runs `count` holds of the last seat at once, task `n` on `services[n % services.count]`.
    static func race(_ services: [HoldService], count: Int) async throws -> [Result<Hold, ConciergeError>] {
        try await withThrowingTaskGroup(of: Result<Hold, ConciergeError>.self) { group in
            for n in 0..<count {
                let service = services[n % services.count]
                group.addTask {
                    do {
                        return .success(
                            try await service.hold(
                                HoldRequest(ownerID: "acc_\(n)", items: [HoldItem(unitKey: lastSeat)])))
                    } catch let error as ConciergeError {
                        return .failure(error)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    static func service(_ database: any SQLDatabase, clock: ManualTimeSource, seed: UInt64) -> HoldService {
        HoldService(
            store: SQLHoldStore(database: database), policy: HoldPolicy(), clock: clock,
            random: SeededRandomSource(seed: seed))
    }

    static func expectOneWinner(_ outcomes: [Result<Hold, ConciergeError>], store: SQLHoldStore) async throws {
        let winners = outcomes.compactMap { try? $0.get() }
        let losers = outcomes.compactMap { outcome -> ConciergeError? in
            if case .failure(let error) = outcome { return error }
            return nil
        }
        #expect(outcomes.count == 50)
        #expect(winners.count == 1)
        #expect(losers.count == 49)
        #expect(losers.allSatisfy { $0.code == "hold_unavailable" && $0.category == .conflict })
        #expect(
            try await store.units(keys: [lastSeat]) == [InventoryUnit(key: lastSeat, capacity: 1, held: 1, sold: 0)])
        if let winner = winners.first {
            #expect(try await store.hold(id: winner.id)?.state == .held)
        }
    }

    @Test(.enabled(if: TestEngine.all.contains(.postgres)))
    func fiftyHoldsOfTheLastSeatAcrossTwoInstancesOnPostgreSQLGiveExactlyOne() async throws {
        let url = try PostgresURL(try await PostgresTestServer.shared.makeDatabaseURL())
        let first = PostgresEngine(url: url, logger: Self.logger)
        try await Migrator(database: first).migrate()
        let second = PostgresEngine(url: url, logger: Self.logger)
        let clock = ManualTimeSource()
        try await SQLHoldStore(database: first).setCapacity([Self.lastSeat: 1])

        let outcomes = try await Self.race(
            [Self.service(first, clock: clock, seed: 1), Self.service(second, clock: clock, seed: 2)], count: 50)
        try await Self.expectOneWinner(outcomes, store: SQLHoldStore(database: second))
        try await first.close()
        try await second.close()
    }

    @Test func fiftyHoldsOfTheLastSeatOnSQLiteGiveExactlyOne() async throws {
        let database = try await TestEngine.sqlite.makeDatabase()
        let clock = ManualTimeSource()
        try await SQLHoldStore(database: database).setCapacity([Self.lastSeat: 1])
        let outcomes = try await Self.race([Self.service(database, clock: clock, seed: 1)], count: 50)
        try await Self.expectOneWinner(outcomes, store: SQLHoldStore(database: database))
        try await database.close()
    }
}
