import ConciergeStore
import Foundation
import Logging
import Testing

/// SQLite writes commit in groups under load: each request's part stands or falls alone, and a
/// request hears "done" only once its write is committed and readable.
@Suite struct SQLiteGroupCommitTests {
    struct Refused: Error, Equatable {
        let number: Int
    }

    static func openFile() async throws -> (SQLiteEngine, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID().uuidString).sqlite")
            .path
        let engine = try await SQLiteEngine.open(path: path, logger: Logger(label: "test"))
        try await engine.query("CREATE TABLE items (number INTEGER PRIMARY KEY, label TEXT NOT NULL)")
        return (engine, path)
    }

    @Test func concurrentTransactionsEachStandOrFallAlone() async throws {
        let (engine, path) = try await Self.openFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcomes = await withTaskGroup(of: (Int, Result<Int, Refused>).self) { group in
            for number in 0..<300 {
                group.addTask {
                    do {
                        let value = try await engine.transaction { db in
                            try await db.query(
                                "INSERT INTO items (number, label) VALUES (?, ?)",
                                [.integer(Int64(number)), .text("n")])
                            // Every third request changes its mind after writing.
                            if number % 3 == 0 { throw Refused(number: number) }
                            return number * 2
                        }
                        return (number, .success(value))
                    } catch {
                        return (number, .failure(error as? Refused ?? Refused(number: -1)))
                    }
                }
            }
            return await group.reduce(into: [Int: Result<Int, Refused>]()) { $0[$1.0] = $1.1 }
        }
        for number in 0..<300 {
            if number % 3 == 0 {
                #expect(outcomes[number] == .failure(Refused(number: number)))
            } else {
                #expect(outcomes[number] == .success(number * 2))
            }
        }
        let stored = try await engine.query("SELECT number FROM items ORDER BY number").map { try $0.int("number") }
        #expect(stored == (0..<300).filter { $0 % 3 != 0 })
        try await engine.close()
    }

    @Test func aCommittedWriteIsReadableTheMomentItsCallerHearsOfIt() async throws {
        let (engine, path) = try await Self.openFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<100 {
                group.addTask {
                    _ = try await engine.query(
                        "INSERT INTO items (number, label) VALUES (?, ?)", [.integer(Int64(number)), .text("n")])
                    // The reads go to another connection: they must see the commit already.
                    let found = try await engine.query(
                        "SELECT label FROM items WHERE number = ?", [.integer(Int64(number))])
                    #expect(found.count == 1)
                }
            }
            try await group.waitForAll()
        }
        try await engine.close()
    }

    @Test func aConstraintViolationFailsOnlyTheRequestThatCausedIt() async throws {
        let (engine, path) = try await Self.openFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await engine.query("INSERT INTO items (number, label) VALUES (1, 'first')")
        let results = await withTaskGroup(of: Bool.self) { group in
            for number in [1, 2, 3, 1, 4] {
                group.addTask {
                    (try? await engine.query(
                        "INSERT INTO items (number, label) VALUES (?, 'again')", [.integer(Int64(number))])) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 3)
        let stored = try await engine.query("SELECT number FROM items ORDER BY number").map { try $0.int("number") }
        #expect(stored == [1, 2, 3, 4])
        try await engine.close()
    }
}
