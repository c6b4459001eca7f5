import ConciergeCore
import ConciergeKit
import ConciergeServer
import ConciergeTestSupport
import Foundation
import Logging
import ServiceLifecycle

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real Concierge server on a free loopback port, for the SDK to talk to over HTTP.
struct LiveServer {
    let baseURL: URL
    let clock: ManualTimeSource

    /// Runs `body` against a fresh server on a temporary SQLite file, then shuts it down.
    static func run<T: Sendable>(_ body: @Sendable (LiveServer) async throws -> T) async throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kit-\(UUID().uuidString).sqlite").path
        // A known free port rather than 0, so the public URL in checkout links is the real one.
        let port = try PostgresTestServer.freePort()
        // The SDK's stays guests register and reserve at once, with nobody to open their
        // verification mail: pay-at-hotel does not ask for a verified email here (docs/limits.md).
        let configuration = try ServerConfiguration(environment: [
            "CONCIERGE_SQLITE_PATH": path, "CONCIERGE_PORT": "\(port)", "CONCIERGE_LOG_LEVEL": "critical",
            "CONCIERGE_STAYS_PAY_AT_HOTEL_NEEDS_VERIFIED_EMAIL": "false",
        ])
        // The SDK's own clock is the real one, so the server's starts now.
        let clock = ManualTimeSource(Date())
        var logger = Logger(label: "concierge.kit-tests")
        logger.logLevel = .critical
        let ports = AsyncStream<Int>.makeStream()
        let app = try await buildApplication(configuration: configuration, clock: clock, logger: logger) { port in
            ports.continuation.yield(port)
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.stream.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            let server = LiveServer(baseURL: URL(string: "http://127.0.0.1:\(port)")!, clock: clock)
            do {
                let result = try await body(server)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    var client: ConciergeClient { ConciergeClient(baseURL: baseURL) }

    /// The newest six-digit code in the dev outbox, as a person reads it from the SMS.
    func latestCode() async throws -> String {
        let (data, _) = try await URLSession.shared.data(from: baseURL.appendingPathComponent("dev/outbox"))
        let text = String(decoding: data, as: UTF8.self)
        guard let range = text.range(of: "code is ", options: .backwards) else { throw CancellationError() }
        return String(text[range.upperBound...].prefix(6))
    }
}
