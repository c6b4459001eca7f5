import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// Issue 26 item 6 (security review 2026-11-27, finding 6): erasing an account reaches every
/// vertical. The check walks every column of the registry (itself held to the real schema by
/// `PersonalDataRegistryTests`): nothing of the person is left but the account's id, where a
/// row stays for accounting, and the columns kept for a documented reason.
@Suite struct AccountErasureStoreTests {
    static let zelda = PersonalDataFixture(name: "zelda", phone: "+41790000777")
    static let bob = PersonalDataFixture(name: "bob", phone: "+41790000888")

    @Test(arguments: TestEngine.all)
    func erasureLeavesNothingPersonalInAnyTable(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        try await PersonalDataFixture.seedCatalogue(in: database)
        try await Self.zelda.seed(in: database)
        try await Self.bob.seed(in: database)
        // The seed reaches every table with a personal column, so the walk below proves something.
        let personalTables = Set(PersonalDataRegistry.all.filter { $0.kind == .personal }.map(\.table))
        for table in personalTables.sorted() {
            let found = try await Self.rowsNaming(Self.zelda, in: table, database)
            #expect(found > 0, "the fixture leaves \(table) without zelda's data")
        }

        try await SQLAccountStore(database: database).transaction(locking: []) { tx in
            try await tx.eraseAccount(id: Self.zelda.accountID, at: PersonalDataFixture.now)
        }

        for table in Set(PersonalDataRegistry.all.map(\.table)).sorted() {
            #expect(try await Self.rowsNaming(Self.zelda, in: table, database) == 0, "zelda is still in \(table)")
        }
        // Bob is untouched, and zelda's orders and bookings are still there to count.
        for table in personalTables.sorted() {
            #expect(try await Self.rowsNaming(Self.bob, in: table, database) > 0, "bob lost his \(table)")
        }
        let id = Self.zelda.accountID
        let kept = try await database.query(
            """
            SELECT (SELECT COUNT(*) FROM orders WHERE id = 'ord_\(id)') AS orders,
                (SELECT COUNT(*) FROM stays_reservations WHERE account_id = '\(id)') AS stays,
                (SELECT COUNT(*) FROM bookings WHERE customer_id = '\(id)') AS rides
            """
        ).first
        #expect(try kept?.int("orders") == 1 && kept?.int("stays") == 1 && kept?.int("rides") == 1)
        try await database.close()
    }

    /// Rows of `table` with one of the person's markers in a column that must not keep it:
    /// every column but account ids and the documented retained ones.
    static func rowsNaming(_ person: PersonalDataFixture, in table: String, _ db: any SQLDatabase) async throws -> Int {
        let columns = PersonalDataRegistry.all.filter { entry in
            guard entry.table == table else { return false }
            if case .retained = entry.kind { return false }
            return entry.kind != .account
        }
        guard !columns.isEmpty else { return 0 }
        let conditions = columns.flatMap { entry in
            person.markers.map { _ in "LOWER(CAST(\"\(entry.column)\" AS TEXT)) LIKE ?" }
        }
        let binds = columns.flatMap { _ in person.markers.map { SQLValue.text("%\($0.lowercased())%") } }
        return try await db.query(
            "SELECT COUNT(*) AS n FROM \(table) WHERE \(conditions.joined(separator: " OR "))", binds
        ).first?.int("n") ?? 0
    }
}
