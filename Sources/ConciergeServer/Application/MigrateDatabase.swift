public import ConciergeStore
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

/// `concierge migrate --check`: what the configured database has applied against what this
/// binary knows, without changing anything.
public func checkSchema(configuration: ServerConfiguration, logger: Logger = Logger(label: "concierge"))
    async throws -> SchemaCompatibility
{
    let database = try await configuration.storage.open(logger: logger)
    do {
        let compatibility = try await Migrator(database: database).compatibility()
        try await database.close()
        return compatibility
    } catch {
        try? await database.close()
        throw error
    }
}
