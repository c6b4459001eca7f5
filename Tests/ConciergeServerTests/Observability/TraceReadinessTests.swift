import ConciergeModels
import ConciergeProviders
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceLifecycle
import Testing

@testable import ConciergeServer

/// `/ready` as an operator reads it: the database, the notifications still waiting and how long
/// the oldest has waited, and the last result of each provider the instance called.
@Suite struct TraceReadinessTests {
    static func readiness(_ client: some TestClientProtocol) async throws -> [String: Any] {
        let ready = try await client.send(.get, "/ready")
        #expect(ready.status == .ok)
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: ready.body)) as? [String: Any])
    }

    @Test(arguments: TestEngine.all)
    func theOutboxBacklogAndItsAgeShowUntilTheWorkerDelivers(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        try await app.runWithWorker { client, worker in
            let empty = try await Self.readiness(client)
            let database = try #require(empty["database"] as? [String: Any])
            #expect(database["engine"] as? String == (engine == .sqlite ? "sqlite" : "postgresql"))
            #expect(database["reachable"] as? Bool == true)
            #expect((database["schemaVersion"] as? Int ?? 0) > 0)
            let nothing = try #require(empty["outbox"] as? [String: Any])
            #expect(nothing["pending"] as? Int == 0)
            #expect(nothing["oldestAgeSeconds"] is NSNull)
            #expect((nothing["byChannel"] as? [String: Int])?.isEmpty == true)

            // A paid booking queues its confirmation; 90 seconds later it still waits.
            let token = try await client.signedInCustomer()
            let booked = try await client.book(token: token, pickupAt: app.clock.now.addingTimeInterval(3 * 86_400))
            let checkoutURL = try #require(try booked.decode(BookingResponse.self).checkoutUrl)
            #expect(try await client.checkout(checkoutURL, outcome: "paid").status == .seeOther)
            app.clock.advance(by: 90)
            let waiting = try #require(try await Self.readiness(client)["outbox"] as? [String: Any])
            let byChannel = try #require(waiting["byChannel"] as? [String: Int])
            #expect(waiting["pending"] as? Int == byChannel.values.reduce(0, +))
            #expect((waiting["pending"] as? Int ?? 0) >= 1)
            #expect(waiting["oldestAgeSeconds"] as? Int == 90)

            await worker.tick()
            let delivered = try #require(try await Self.readiness(client)["outbox"] as? [String: Any])
            #expect(delivered["pending"] as? Int == 0)
            #expect(delivered["oldestAgeSeconds"] is NSNull)
        }
    }

    @Test func aProvidersLastFailureShowsWithoutMakingTheInstanceUnready() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await Self.withFailingProvider { url in
            // The real transport, as every adapter uses it; `localhost` keeps this provider's
            // line apart from other suites' stubs on 127.0.0.1.
            let answer = try await AsyncHTTPClientTransport().send(
                ProviderHTTPRequest(method: "GET", url: url), timeout: .seconds(10))
            #expect(answer.status == 503)
        }
        try await app.run { client in
            let providers = try #require(try await Self.readiness(client)["providers"] as? [[String: Any]])
            let local = try #require(providers.first { $0["name"] as? String == "localhost" })
            #expect(local["ok"] as? Bool == false)
            #expect(local["error"] as? String == "HTTP 503")
            let at = try #require(local["at"] as? String)
            #expect(at.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil)
        }
    }

    /// A provider on a loopback port that answers every call 503.
    static func withFailingProvider(_ body: @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        router.get("/v1/status") { _, _ in Response(status: .serviceUnavailable) }
        var logger = Logger(label: "failing-provider")
        logger.logLevel = .critical
        let ports = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { ports.continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.stream.makeAsyncIterator()
            let port = try #require(await iterator.next())
            do {
                try await body("http://localhost:\(port)/v1/status")
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
