public import ServiceLifecycle
import Synchronization

/// The pause between SIGTERM and the server closing its port. A load balancer only stops sending
/// an instance requests once its health check fails; closing the port at once would refuse the
/// requests it sends until then. So `/ready` answers 503 first, for `period`, and the server then
/// stops as before (in-flight requests finish). It runs last in the service group, so a graceful
/// shutdown (which goes in reverse) reaches it before the application.
public final class ShutdownDrain: Service, Sendable {
    public let period: Duration
    private let draining = Atomic<Bool>(false)
    private let pause: @Sendable (Duration) async throws -> Void

    /// - Parameter pause: waits out the period; tests pass one that waits for them instead.
    public init(
        period: Duration,
        pause: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.period = period
        self.pause = pause
    }

    /// True from the shutdown signal on: `/ready` answers 503 so the balancer takes the instance out.
    public var isDraining: Bool { draining.load(ordering: .relaxed) }

    public func run() async throws {
        // Cancellation (a service failed, or a second signal) ends the wait and the drain at once.
        do { try await gracefulShutdown() } catch { return }
        draining.store(true, ordering: .relaxed)
        try? await pause(period)
    }
}
