import ConciergeStore
import Foundation
public import Logging

/// `concierge migrate`: applies pending migrations to the configured database and closes it.
public func migrateDatabase(configuration: ServerConfiguration, logger: Logger = Logger(label: "concierge"))
    async throws
    -> [String]
{
    let database = try await configuration.storage.open(logger: logger)
    do {
        let applied = try await Migrator(database: database).migrate()
        try await database.close()
        return applied
    } catch {
        try? await database.close()
        throw error
    }
}
