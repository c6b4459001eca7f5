import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// Issue 26 item 5: joining two accounts moves everything of the one that goes to the one that
/// stays, in every vertical; nothing is left naming the account that went but its tombstone.
@Suite struct AccountJoiningStoreTests {
    static let zelda = PersonalDataFixture(name: "zelda", phone: "+41790000777")
    static let bob = PersonalDataFixture(name: "bob", phone: "+41790000888")

    @Test(arguments: TestEngine.all)
    func joiningMovesEveryVerticalsData(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        try await PersonalDataFixture.seedCatalogue(in: database)
        try await Self.zelda.seed(in: database)
        try await Self.bob.seed(in: database)
        let (from, into) = (Self.zelda.accountID, Self.bob.accountID)

        try await SQLAccountStore(database: database).transaction(locking: []) { tx in
            try await tx.mergeAccount(from, into: into, at: PersonalDataFixture.now)
        }

        // No account column names the account that went, but its own tombstone row.
        for entry in PersonalDataRegistry.all where entry.kind == .account && entry.table != "accounts" {
            let left = try await database.query(
                "SELECT COUNT(*) AS n FROM \(entry.table) WHERE \"\(entry.column)\" = ? OR \"\(entry.column)\" = ?",
                [.text(from), .text("account:\(from)")])
            #expect(try left.first?.int("n") == 0, "\(entry.table).\(entry.column) still names \(from)")
        }
        let counts: [(String, String)] = [
            ("bookings", "customer_id"), ("stays_reservations", "account_id"), ("events_bookings", "account_id"),
            ("commute_trips", "account_id"), ("commute_devices", "account_id"), ("orders", "account_id"),
            ("commute_notifications", "account_id"), ("holds", "owner_id"),
        ]
        for (table, column) in counts {
            let rows = try await database.query(
                "SELECT COUNT(*) AS n FROM \(table) WHERE \(column) = ?", [.text(into)])
            #expect(try rows.first?.int("n") == 2, "\(table) of the joined account")
        }
        // Both guests' reservations are on the staying guest; observations follow their trips.
        let guests = try await database.query(
            "SELECT COUNT(DISTINCT guest_id) AS n FROM stays_reservations WHERE account_id = ?", [.text(into)])
        #expect(try guests.first?.int("n") == 1)
        let observed = try await database.query(
            "SELECT COUNT(*) AS n FROM commute_observations WHERE trip_id IN (SELECT id FROM commute_trips WHERE account_id = ?)",
            [.text(into)])
        #expect(try observed.first?.int("n") == 2)
        // Both had rides bookings: the staying profile keeps its phone.
        let profile = try await database.query("SELECT phone FROM customers WHERE id = ?", [.text(into)])
        #expect(try profile.first?.string("phone") == Self.bob.phone)
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func theRidesProfileWithBookingsWinsWhenTheStayingOneHasNone(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        try await PersonalDataFixture.seedCatalogue(in: database)
        try await Self.zelda.seed(in: database)
        let into = "acc_new"
        try await database.query("INSERT INTO accounts (id, created_at) VALUES ('acc_new', 1)")
        try await database.query(
            "INSERT INTO customers (id, phone, name, email, created_at) VALUES ('acc_new', '+41790000999', NULL, NULL, 1)"
        )

        try await SQLAccountStore(database: database).transaction(locking: []) { tx in
            try await tx.mergeAccount(Self.zelda.accountID, into: into, at: PersonalDataFixture.now)
        }

        let profile = try #require(
            try await database.query("SELECT * FROM customers WHERE id = ?", [.text(into)]).first)
        #expect(try profile.string("phone") == Self.zelda.phone)
        #expect(try profile.optionalString("name") == "zelda Example")
        let left = try await database.query(
            "SELECT COUNT(*) AS n FROM customers WHERE id = ?", [.text(Self.zelda.accountID)])
        #expect(try left.first?.int("n") == 0)
        try await database.close()
    }
}
