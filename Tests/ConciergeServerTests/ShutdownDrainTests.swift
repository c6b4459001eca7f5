import AsyncHTTPClient
import ConciergeTestSupport
import Foundation
import NIOCore
import ServiceLifecycle
import Testing

@testable import ConciergeServer

/// On SIGTERM an instance behind a load balancer first fails its readiness check, for
/// CONCIERGE_DRAIN_SECONDS, while it still serves; only then does the port close. Without the
/// drain, the balancer kept sending requests to a closed port until its next check.
@Suite struct ShutdownDrainTests {
    /// A pause that waits for the test instead of the clock, and says when it began.
    final class HeldPause: Sendable {
        let began = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()

        @Sendable func pause(_ period: Duration) async throws {
            began.continuation.yield()
            for await _ in release.stream { return }
        }
    }

    @Test func aShuttingDownInstanceFailsReadinessWhileItStillServes() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_PORT": "0"])
        let held = HeldPause()
        let drain = ShutdownDrain(period: .seconds(60), pause: held.pause)
        let assembly = try await assemble(
            configuration: app.configuration, clock: app.clock, logger: TestApp.quiet, drain: drain)
        let port = AsyncStream<Int>.makeStream()
        let application = makeApplication(assembly: assembly, configuration: app.configuration) { bound in
            port.continuation.yield(bound)
        }
        // As `concierge serve` runs them: the drain last, so the shutdown reaches it first.
        let group = ServiceGroup(configuration: .init(services: [application, drain], logger: TestApp.quiet))

        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var ports = port.stream.makeAsyncIterator()
            let bound = try #require(await ports.next())
            let base = "http://127.0.0.1:\(bound)"
            #expect(try await status(of: "\(base)/ready") == 200)

            await group.triggerGracefulShutdown()
            var began = held.began.stream.makeAsyncIterator()
            _ = await began.next()
            #expect(try await status(of: "\(base)/ready") == 503)
            #expect(try await status(of: "\(base)/health") == 200)
            #expect(try await status(of: "\(base)/openapi.yaml") == 200)

            held.release.continuation.yield()
            try await tasks.waitForAll()
            await #expect(throws: (any Error).self) { try await status(of: "\(base)/health") }
        }
    }

    @Test func theDrainLastsTwoSecondsInProductionAndNothingInDevUnlessSet() throws {
        let production = ConfigurationHardeningTests.production
        #expect(try ServerConfiguration(environment: production).drainSeconds == 2)
        #expect(try ServerConfiguration(environment: [:]).drainSeconds == 0)
        #expect(try ServerConfiguration(environment: ["CONCIERGE_DRAIN_SECONDS": "5"]).drainSeconds == 5)
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(environment: ["CONCIERGE_DRAIN_SECONDS": "-1"])
        }
    }

    private func status(of url: String) async throws -> UInt {
        try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(5)).status.code
    }
}
