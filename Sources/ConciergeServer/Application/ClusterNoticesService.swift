import ConciergeStore
import ServiceLifecycle

/// Listens to the other instances' notices while the server runs (`PostgresClusterNotices`);
/// started after the database and so stopped before it closes.
struct ClusterNoticesService: Service {
    let notices: PostgresClusterNotices

    func run() async throws {
        await cancelWhenGracefulShutdown { await notices.run() }
    }
}

extension ClusterNoticesService: CustomStringConvertible {
    var description: String { "ClusterNoticesService" }
}
