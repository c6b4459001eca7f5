import ConciergeStore
import ServiceLifecycle

/// Keeps the database open while the server runs and closes it after the HTTP server has
/// drained its in-flight requests (services shut down in reverse order of starting).
struct DatabaseService: Service {
    let database: any SQLDatabase

    func run() async throws {
        try? await gracefulShutdown()
        try await database.close()
    }
}

extension DatabaseService: CustomStringConvertible {
    var description: String { "DatabaseService(\(type(of: database)))" }
}
