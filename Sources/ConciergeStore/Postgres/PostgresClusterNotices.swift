public import ConciergeCore
import Foundation
public import Logging
import PostgresNIO

/// `ClusterNotices` over PostgreSQL's `LISTEN/NOTIFY`: notices go out through the engine's pool
/// (`pg_notify`, every payload of a batch in one statement) and come in on one connection of that
/// pool, held by `run` for as long as it lives.
///
/// When that connection drops (PostgreSQL restarted, the network cut), `run` takes another after a
/// backoff (50 ms, doubling to 5 s); once it listens again every listener hears `missed`, since
/// notices sent meanwhile are lost. While none listens, caches fall back on their own age bound.
public final class PostgresClusterNotices: ClusterNotices, @unchecked Sendable {
    private struct Listener {
        let receive: @Sendable (String) -> Void
        let missed: @Sendable () -> Void
    }

    private let client: PostgresClient
    private let logger: Logger
    private let lock = NSLock()
    private var listeners: [String: [Listener]] = [:]

    public init(engine: PostgresEngine, logger: Logger) {
        self.client = engine.client
        self.logger = logger
    }

    public func send(_ payloads: [String], on channel: String) async throws {
        guard !payloads.isEmpty else { return }
        let rows = try await client.query(
            "SELECT pg_notify(\(channel), payload) FROM unnest(\(payloads)::text[]) AS payload", logger: logger)
        for try await _ in rows {}
    }

    public func listen(
        on channel: String, receive: @escaping @Sendable (String) -> Void, missed: @escaping @Sendable () -> Void
    ) {
        lock.withLock { listeners[channel, default: []].append(Listener(receive: receive, missed: missed)) }
    }

    /// Listens until the task is cancelled (and returns only then).
    public func run() async {
        let channels = lock.withLock { listeners.keys.sorted() }
        guard !channels.isEmpty else {
            // Nothing to hear; returning early would read as the service ending and stop the server.
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            return
        }
        var backoff = Duration.milliseconds(50)
        while !Task.isCancelled {
            let started = ContinuousClock.now
            do {
                try await client.withConnection { connection in
                    try await self.listen(to: channels, on: connection)
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("cluster notices: not listening (\(error)); retrying in \(backoff)")
            }
            // A connection that lived a while was a good one: start the backoff over.
            if ContinuousClock.now - started > .seconds(10) { backoff = .milliseconds(50) }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, .seconds(5))
        }
    }

    /// Returns (or throws) when the connection stops delivering.
    private func listen(to channels: [String], on connection: PostgresConnection) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for channel in channels {
                group.addTask {
                    try await connection.listen(on: channel) { notices in
                        // Listening from here on; what was sent before may have been missed.
                        for listener in self.listeners(of: channel) { listener.missed() }
                        for try await notice in notices {
                            for listener in self.listeners(of: channel) { listener.receive(notice.payload) }
                        }
                    }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    private func listeners(of channel: String) -> [Listener] {
        lock.withLock { listeners[channel] ?? [] }
    }
}
