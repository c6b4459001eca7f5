import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

@testable import ConciergeServer

/// The database decorator on both engines: a span per transaction under the request's span,
/// its duration and the pool in use, and database failures (not rules saying no) counted.
@Suite struct TraceDatabaseTests {
    struct Broken: Error {}

    @Test(arguments: TestEngine.all)
    func aTransactionIsAChildSpanTimedAndCountedInFlight(engine: TestEngine) async throws {
        let tracer = InMemoryTracer()
        let metrics = TestMetrics()
        let name = engine == .sqlite ? "sqlite" : "postgresql"
        let database = InstrumentedDatabase(
            wrapping: try await engine.makeDatabase(), engine: name, tracer: tracer, metrics: metrics)
        defer { Task { try? await database.close() } }
        let inFlight = try metrics.expectMeter("concierge_db_transactions_in_flight", [("engine", name)])

        let request = tracer.startSpan("GET /ready", ofKind: .server)
        let seenInside = try await ServiceContext.$current.withValue(request.context) {
            try await database.transaction(lockKeys: ["a", "b"]) { executor in
                try await executor.query("SELECT 1 AS one")
                return inFlight.lastValue
            }
        }
        request.end()

        #expect(seenInside == 1)
        #expect(inFlight.lastValue == 0)
        let span = try #require(tracer.finishedSpans.first { $0.operationName == "\(name) transaction" })
        #expect(span.parentSpanID == request.context.inMemorySpanContext?.spanID)
        #expect(span.attributes["db.system"]?.toSpanAttribute() == .string(name))
        let timer = try metrics.expectTimer("concierge_db_transaction_duration_seconds", [("engine", name)])
        #expect(timer.values.count == 1)
        // Neither queries outside a transaction nor a transaction outside a request (a
        // background job's) start a span; the job's transaction is still timed.
        try await database.query("SELECT 1 AS one")
        _ = try await database.transaction { executor in try await executor.query("SELECT 1 AS one") }
        #expect(tracer.finishedSpans.count == 2)
        #expect(timer.values.count == 2)
    }

    @Test func aFailingTransactionIsCountedAndARefusalByARuleIsNot() async throws {
        let tracer = InMemoryTracer()
        let metrics = TestMetrics()
        let database = InstrumentedDatabase(
            wrapping: try await TestEngine.sqlite.makeDatabase(), engine: "sqlite", tracer: tracer, metrics: metrics)
        defer { Task { try? await database.close() } }
        let errors = try metrics.expectCounter("concierge_db_transaction_errors_total", [("engine", "sqlite")])

        let request = tracer.startSpan("POST /events/api/checkout", ofKind: .server)
        await ServiceContext.$current.withValue(request.context) {
            await #expect(throws: ConciergeError.self) {
                try await database.transaction { _ in throw ConciergeError.sessionExpired }
            }
            #expect(errors.totalValue == 0)
            await #expect(throws: (any Error).self) {
                try await database.transaction { executor in try await executor.query("SELECT * FROM no_such_table") }
            }
            #expect(errors.totalValue == 1)
        }
        request.end()
        // Outside a request too.
        await #expect(throws: (any Error).self) {
            try await database.transaction { executor in try await executor.query("SELECT * FROM no_such_table") }
        }
        #expect(errors.totalValue == 2)
        let failed = try #require(tracer.finishedSpans.last { $0.operationName == "sqlite transaction" })
        #expect(failed.errors.count == 1)
        #expect(try metrics.expectMeter("concierge_db_transactions_in_flight", [("engine", "sqlite")]).lastValue == 0)
    }
}
