import ConciergeStore
import Foundation
import Testing

/// Statements are prepared once per connection and bound again on every run; the bindings of
/// the last run are not cleared (clearing them made SQLite prepare some statements anew on
/// every run), so each run must bind every parameter.
@Suite struct SQLiteStatementTests {
    @Test func aKeptStatementAnswersEachRunWithItsOwnValues() async throws {
        let (engine, path) = try await SQLiteGroupCommitTests.openFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        for number in 1...6 {
            _ = try await engine.query(
                "INSERT INTO items (number, label) VALUES (?, ?)", [.integer(Int64(number)), .text("n\(number % 2)")])
        }
        // A filter beside the primary key and an ORDER BY: the shape SQLite used to re-prepare.
        let sql = "SELECT number FROM items WHERE label = ? AND number > ? ORDER BY number"
        let odd = try await engine.query(sql, [.text("n1"), .integer(0)]).map { try $0.int("number") }
        let even = try await engine.query(sql, [.text("n0"), .integer(2)]).map { try $0.int("number") }
        let none = try await engine.query(sql, [.text("n1"), .integer(5)]).map { try $0.int("number") }
        #expect(odd == [1, 3, 5])
        #expect(even == [4, 6])
        #expect(none == [])
        try await engine.close()
    }

    @Test func aStatementGivenTooFewOrTooManyValuesIsRefusedAndWritesNothing() async throws {
        let (engine, path) = try await SQLiteGroupCommitTests.openFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let insert = "INSERT INTO items (number, label) VALUES (?, ?)"
        _ = try await engine.query(insert, [.integer(1), .text("first")])
        // The second run would otherwise have read the first run's label.
        let tooFew = await #expect(throws: SQLiteFailure.self) {
            try await engine.query(insert, [.integer(2)])
        }
        #expect(tooFew?.message.contains("takes 2 parameters, 1 were given") == true)
        await #expect(throws: SQLiteFailure.self) {
            try await engine.query(insert, [.integer(3), .text("third"), .text("extra")])
        }
        let stored = try await engine.query("SELECT number FROM items ORDER BY number").map { try $0.int("number") }
        #expect(stored == [1])
        try await engine.close()
    }
}
