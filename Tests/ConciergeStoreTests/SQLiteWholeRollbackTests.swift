import ConciergeTestSupport
import Foundation
import Logging
import Testing

@testable import ConciergeStore

/// Security review finding 15: after some errors (an I/O error, out of memory) SQLite rolls the
/// whole transaction back, not just the statement. The group-commit writer must then tell the
/// members that ran that they failed, and run the rest in a new transaction — not in autocommit
/// mode, where they were committed and then told they failed.
@Suite struct SQLiteWholeRollbackTests {
    struct Gate: Sendable {
        let stream: AsyncStream<Void>
        let continuation: AsyncStream<Void>.Continuation
        init() { (stream, continuation) = AsyncStream<Void>.makeStream() }
        func wait() async { for await _ in stream { return } }
    }

    @Test func membersAfterAWholeRollbackRunInANewTransactionAndAreToldTheTruth() async throws {
        let (engine, path) = try await SQLiteGroupCommitTests.openFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let gate = Gate()
        let started = Gate()
        let results = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
            // The first write holds the connection until the next three are queued as one group.
            group.addTask {
                _ = try await engine.transaction { db in
                    started.continuation.yield()
                    await gate.wait()
                    try await db.query("INSERT INTO items (number, label) VALUES (0, 'holder')")
                }
                return ("holder", true)
            }
            await started.wait()
            for (label, number) in [("before", 1), ("rolls back", 2), ("after", 3)] {
                group.addTask {
                    do {
                        try await engine.transaction { db in
                            try await db.query(
                                "INSERT INTO items (number, label) VALUES (?, ?)",
                                [.integer(Int64(number)), .text(label)])
                            // Stands in for SQLite's own rollback of the whole transaction.
                            if number == 2 { try await db.query("ROLLBACK") }
                        }
                        return (label, true)
                    } catch {
                        return (label, false)
                    }
                }
                try await waitUntil("\(number) transactions queued") { engine.writer.queuedCount >= number }
            }
            gate.continuation.yield()
            return try await group.reduce(into: [String: Bool]()) { $0[$1.0] = $1.1 }
        }
        let stored = try await engine.query("SELECT label FROM items ORDER BY number").map { try $0.string("label") }
        #expect(results["before"] == false && results["rolls back"] == false)
        #expect(results["after"] == true)
        // What each member heard matches what was kept.
        #expect(stored == ["holder", "after"])
        try await engine.close()
    }
}

/// Security review finding 26: the database holds phones, emails and session hashes.
@Suite struct SQLiteFilePermissionTests {
    @Test func theDatabaseAndItsLogAreReadableByTheOwnerOnly() async throws {
        let (engine, path) = try await SQLiteGroupCommitTests.openFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await engine.query("INSERT INTO items (number, label) VALUES (1, 'x')")
        for file in [path, path + "-wal"] {
            let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(permissions == 0o600, "\(file)")
        }
        try await engine.close()
    }
}
