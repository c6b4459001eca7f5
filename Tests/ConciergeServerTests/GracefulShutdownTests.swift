import AsyncHTTPClient
import ConciergeCore
import ConciergeTestSupport
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import Testing

@testable import ConciergeServer

/// SIGTERM and SIGINT start a graceful shutdown (Hummingbird's `runService`); this drives the
/// same ServiceGroup shutdown directly and checks that a request already in flight finishes.
@Suite struct GracefulShutdownTests {
    /// An SMS sender that holds every send until released.
    final class HeldSender: SMSSender, @unchecked Sendable {
        let started = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()

        func sendSMS(to phone: PhoneNumber, body: String) async throws {
            started.continuation.yield()
            for await _ in release.stream { return }
        }
    }

    @Test func aRequestInFlightFinishesBeforeTheServerStops() async throws {
        let app = try await TestApp.make(engine: .sqlite, environment: ["CONCIERGE_PORT": "0"])
        let sender = HeldSender()
        let assembly = try await assemble(
            configuration: app.configuration, clock: app.clock, logger: TestApp.quiet, smsSender: sender)
        let port = AsyncStream<Int>.makeStream()
        let application = makeApplication(assembly: assembly, configuration: app.configuration) { bound in
            port.continuation.yield(bound)
        }
        let group = ServiceGroup(configuration: .init(services: [application], logger: TestApp.quiet))

        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var ports = port.stream.makeAsyncIterator()
            let bound = try #require(await ports.next())

            // Finishes when the answer is in: unlike the task's value, waiting on it can be cancelled.
            let answered = AsyncStream<Void>.makeStream()
            let response = Task {
                defer { answered.continuation.finish() }
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(bound)/rides/sms-code-send")
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: #"{"phone": "+41791234567"}"#))
                return try await HTTPClient.shared.execute(request, timeout: .seconds(10)).status.code
            }
            // Either the send begins (the request is in flight) or the request was answered
            // without reaching it; waiting for the send alone hung the whole suite when a
            // missing Content-Type made the request a 415.
            let inFlight = await withTaskGroup(of: Bool.self) { race in
                race.addTask {
                    var started = sender.started.stream.makeAsyncIterator()
                    return await started.next() != nil
                }
                race.addTask {
                    for await _ in answered.stream {}
                    return false
                }
                let first = await race.next() ?? false
                race.cancelAll()
                return first
            }
            guard inFlight else {
                Issue.record(
                    "the request was answered \(String(describing: try? await response.value)) before its send began")
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return
            }
            await group.triggerGracefulShutdown()
            sender.release.continuation.yield()
            #expect(try await response.value == 200)
            try await tasks.waitForAll()
        }
    }
}
