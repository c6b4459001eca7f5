import Foundation

/// Named operators and their audit log.
public protocol OperatorStore: Sendable {
    /// Adds the operator and its bare account in one transaction; throws
    /// `OperatorService.nameTaken` when the name is in use.
    func add(_ operator: Operator, passwordHash: String) async throws
    func `operator`(named name: String) async throws -> (Operator, passwordHash: String)?
    func `operator`(accountID: String) async throws -> Operator?
    /// Whether any named operator exists: until one does, the admin token signs in to `/ops`.
    func hasOperators() async throws -> Bool
    /// Runs `body` in a transaction holding `keys`' locks, over the rate events every throttle
    /// shares.
    func withRateEvents<T: Sendable>(
        locking keys: [String], _ body: @escaping @Sendable (any RateEventLog) async throws -> T
    ) async throws -> T
    /// Writes an entry on its own, for an action that wrote nothing else (a refused step, a scan
    /// of an unknown code). Entries of actions that write are written by `OperatorAction`.
    func record(_ entry: OperatorAuditEntry) async throws
    /// Newest first.
    func audit(limit: Int, offset: Int) async throws -> [OperatorAuditEntry]
}
