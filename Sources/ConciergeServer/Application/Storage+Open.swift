import ConciergeStore
import Logging

extension ServerConfiguration.Storage {
    /// Opens the configured engine.
    func open(logger: Logger) async throws -> any SQLDatabase {
        switch self {
        case .sqlite(let path, let synchronous):
            try await SQLiteEngine.open(path: path, synchronous: synchronous, logger: logger)
        case .postgres(let url): PostgresEngine(url: url, logger: logger)
        }
    }

    var engineName: String {
        switch self {
        case .sqlite: "sqlite"
        case .postgres: "postgresql"
        }
    }
}
