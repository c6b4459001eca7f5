import ConciergeStore
import ConciergeTestSupport
import Testing

/// Hot statements may be kept prepared by the engine; they must answer exactly like any other.
@Suite struct PreparedQueryTests {
    @Test(arguments: TestEngine.all)
    func aPreparedStatementAnswersLikeAnyOtherWhateverItsValuesAndNulls(engine: TestEngine) async throws {
        let database = try await engine.makeDatabase()
        try await database.query("CREATE TABLE prepared_probe (id BIGINT PRIMARY KEY, label TEXT, weight BIGINT)")
        let insert = "INSERT INTO prepared_probe (id, label, weight) VALUES (?, ?, ?) RETURNING id"
        // Many runs, over several pooled connections, with NULLs in different places: a NULL in
        // another place is bound with another type, so it must not reuse the other's plan wrongly.
        for id in 1...40 {
            let label: SQLValue = id.isMultiple(of: 3) ? .null : .text("row \(id)")
            let weight: SQLValue = id.isMultiple(of: 4) ? .null : .integer(Int64(id * 10))
            let rows = try await database.preparedQuery(insert, [.integer(Int64(id)), label, weight])
            #expect(try rows.first?.int("id") == id)
        }
        let select = "SELECT label, weight FROM prepared_probe WHERE id = ?"
        for id in [1, 3, 4, 12, 40] {
            let row = try #require(try await database.preparedQuery(select, [.integer(Int64(id))]).first)
            #expect(try row.optionalString("label") == (id.isMultiple(of: 3) ? nil : "row \(id)"))
            let weight: SQLValue = id.isMultiple(of: 4) ? .null : .integer(Int64(id * 10))
            #expect(row.values["weight"] == weight)
        }
        // A broken unique constraint is the same error either way.
        await #expect(throws: SQLUniqueViolation.self) {
            try await database.preparedQuery(insert, [.integer(1), .text("again"), .integer(1)])
        }
        try await database.close()
    }
}
