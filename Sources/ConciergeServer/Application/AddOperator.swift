import ConciergeCore
import ConciergeStore
import Foundation
public import Logging

/// `concierge ops add-operator NAME`: adds a named `/ops` operator straight to the configured
/// database (the way the first one is made on a new install, where nobody has signed in yet),
/// with the server's bcrypt cost. Migrates first when the server would (`CONCIERGE_AUTO_MIGRATE`).
/// A refusal (a taken or malformed name, a weak password) is thrown as `OperatorRefusal`.
public func addOperator(
    configuration: ServerConfiguration, name: String, password: String, logger: Logger = Logger(label: "concierge")
) async throws -> (id: String, name: String) {
    let database = OperatorAuditingDatabase(wrapping: try await configuration.storage.open(logger: logger))
    do {
        if configuration.autoMigrate { try await Migrator(database: database).migrate() }
        let random = SystemRandomSource()
        let operators = OperatorService(
            store: SQLOperatorStore(database: database),
            passwords: configuration.accounts.passwordHasher(random: random), random: random,
            clock: SystemTimeSource(), policy: configuration.accountPolicy)
        let added = try await operators.add(name: name, password: password, by: .commandLine)
        try await database.close()
        return (added.id, added.name)
    } catch let refusal as ConciergeError {
        try? await database.close()
        throw OperatorRefusal(description: refusal.message)
    } catch {
        try? await database.close()
        throw error
    }
}

/// Why an operator was not added, in a sentence for the terminal.
public struct OperatorRefusal: Error, CustomStringConvertible {
    public let description: String
}
