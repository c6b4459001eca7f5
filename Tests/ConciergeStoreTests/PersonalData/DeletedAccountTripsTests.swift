import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// Issue 26 item 6 (finding 6): the commute scheduler never picks a deleted account's trip,
/// even one written after the erasure.
@Suite struct DeletedAccountTripsTests {
    @Test(arguments: TestEngine.all)
    func theSchedulerSkipsADeletedAccountsTrips(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        try await database.query("INSERT INTO accounts (id, created_at, deleted_at) VALUES ('acc_gone', 1, 2)")
        try await database.query(
            "INSERT INTO commute_trips (id, account_id, body, created_at, updated_at, next_check_at) VALUES ('trp_1', 'acc_gone', '{}', 1, 1, 1)"
        )
        let due = try await SQLCommuteStore(database: database).dueTrips(now: PersonalDataFixture.now, limit: 10)
        #expect(due.isEmpty)
        try await database.close()
    }
}
