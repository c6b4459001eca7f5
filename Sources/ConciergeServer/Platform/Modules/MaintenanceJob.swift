/// One piece of background work a module registers: expiring its unpaid orders, lapsing holds,
/// pruning idempotency keys, delivering the outbox. Every job must be safe to run on several
/// instances at once (conditional writes, leases), since every instance runs every job.
public struct MaintenanceJob: Sendable {
    public let name: String
    public let run: @Sendable () async throws -> Void

    public init(_ name: String, run: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.run = run
    }
}
