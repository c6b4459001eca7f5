import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// The audit entry of an operator's action commits and rolls back with the action's own
/// transaction (`OperatorAction` over `OperatorAuditingDatabase`), on both engines.
@Suite struct OperatorAuditStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let entry = OperatorAuditEntry(
        at: now, operatorAccountID: "acc_operator_alice", operatorName: "alice", action: "order.cancel",
        subject: "ord_1", detail: "")

    @Test(arguments: TestEngine.all)
    func theEntryRollsBackWithAFailedActionAndCommitsOnceWithTheNext(engine: TestEngine) async throws {
        let database = OperatorAuditingDatabase(wrapping: try await engine.makeDatabase())
        let store = SQLOperatorStore(database: database)
        try await database.query("CREATE TABLE audit_probe (id TEXT PRIMARY KEY)")
        struct Boom: Error {}

        try await OperatorAction.perform(Self.entry, store: store) {
            // The first write fails and rolls back: its entry goes with it.
            await #expect(throws: Boom.self) {
                try await database.transaction { db in
                    try await db.query("INSERT INTO audit_probe (id) VALUES ('rolled back')")
                    throw Boom()
                }
            }
            #expect(try await store.audit(limit: 10, offset: 0).isEmpty)
            // The next commits, with the entry; a third write carries none.
            _ = try await database.transaction { db in try await db.query("INSERT INTO audit_probe (id) VALUES ('a')") }
            _ = try await database.transaction { db in try await db.query("INSERT INTO audit_probe (id) VALUES ('b')") }
        }
        #expect(try await store.audit(limit: 10, offset: 0) == [Self.entry])
        // Outside an action, transactions write no entry.
        _ = try await database.transaction { db in try await db.query("INSERT INTO audit_probe (id) VALUES ('c')") }
        #expect(try await store.audit(limit: 10, offset: 0).count == 1)
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func anActionThatWritesNothingIsRecordedOnItsOwnWithItsOutcomeOrRefusal(engine: TestEngine) async throws {
        let database = OperatorAuditingDatabase(wrapping: try await engine.makeDatabase())
        let store = SQLOperatorStore(database: database)
        let outcome = try await OperatorAction.perform(Self.entry, store: store, unwritten: { "found \($0)" }) {
            "nothing"
        }
        #expect(outcome == "nothing")
        await #expect(throws: ConciergeError.self) {
            try await OperatorAction.perform(Self.entry, store: store) { () async throws -> Int in
                throw ConciergeError(.conflict, code: "too_late", message: "Too late.")
            }
        }
        let details = try await store.audit(limit: 10, offset: 0).map(\.detail)
        #expect(details == ["refused: too_late", "found nothing"])
        try await database.close()
    }
}
