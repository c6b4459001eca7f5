public import ConciergeStore
import Foundation
import Logging

/// The storage engines every store and end-to-end test runs against.
public enum TestEngine: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    public var description: String { rawValue }

    /// Both engines, or SQLite alone when `CONCIERGE_SKIP_POSTGRES=1`.
    public static var all: [TestEngine] {
        PostgresTestServer.skipRequested ? [.sqlite] : [.sqlite, .postgres]
    }

    /// A fresh, migrated database on this engine.
    public func makeDatabase() async throws -> any SQLDatabase {
        let database = try await openEmpty()
        try await Migrator(database: database).migrate()
        return database
    }

    /// A fresh database without migrations.
    public func openEmpty() async throws -> any SQLDatabase {
        switch self {
        case .sqlite:
            return try await SQLiteEngine.open(path: ":memory:", logger: Self.logger)
        case .postgres:
            let url = try await PostgresTestServer.shared.makeDatabaseURL()
            return PostgresEngine(url: try PostgresURL(url), logger: Self.logger)
        }
    }

    /// A URL for a fresh database on this engine, for tests that start whole servers: a
    /// temporary SQLite file, or a new PostgreSQL database.
    public func makeDatabaseLocation() async throws -> String {
        switch self {
        case .sqlite:
            FileManager.default.temporaryDirectory.appendingPathComponent("concierge-test-\(UUID().uuidString).sqlite")
                .path
        case .postgres:
            try await PostgresTestServer.shared.makeDatabaseURL()
        }
    }

    static let logger = Logger(label: "concierge.tests.store")
}
