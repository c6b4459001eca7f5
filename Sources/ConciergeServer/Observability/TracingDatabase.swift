import ConciergeCore
import ConciergeStore
import CoreMetrics
import Tracing

/// The database as the application sees it, with every transaction traced and measured.
///
/// A transaction is a child span of the request's span (when tracing is on) and feeds
/// `concierge_db_transaction_duration_seconds`, `concierge_db_transactions_in_flight` (how much of
/// the pool is in use) and `concierge_db_transaction_errors_total`, all labelled by engine.
/// Statements outside a transaction pass straight through: they are single reads, and a span per
/// statement would cost more than it tells.
struct InstrumentedDatabase: SQLDatabase {
    private let upstream: any SQLDatabase
    private let engine: String
    /// Nil when tracing is off: transactions then skip the span machinery altogether.
    private let tracer: (any Tracer)?
    private let duration: Timer
    private let inFlight: Meter
    private let errors: Counter

    /// - Parameters:
    ///   - tracer: the process's bootstrapped tracer (read once: `serve` bootstraps it before the
    ///     application is built) unless a test passes its own.
    ///   - metrics: the process's bootstrapped metrics factory unless a test passes its own.
    init(
        wrapping upstream: any SQLDatabase, engine: String, tracer: (any Tracer)? = nil,
        metrics: (any MetricsFactory)? = nil
    ) {
        self.upstream = upstream
        self.engine = engine
        let tracer = tracer ?? InstrumentationSystem.tracer
        self.tracer = tracer is NoOpTracer ? nil : tracer
        let factory = metrics ?? MetricsSystem.factory
        let dimensions = [("engine", engine)]
        duration = Timer(label: "concierge_db_transaction_duration_seconds", dimensions: dimensions, factory: factory)
        inFlight = Meter(label: "concierge_db_transactions_in_flight", dimensions: dimensions, factory: factory)
        errors = Counter(label: "concierge_db_transaction_errors_total", dimensions: dimensions, factory: factory)
    }

    var dialect: SQLDialect { upstream.dialect }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try await upstream.query(sql, binds)
    }

    func preparedQuery(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try await upstream.preparedQuery(sql, binds)
    }

    func transaction<T: Sendable>(
        lockKeys: [String], _ body: @escaping @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T {
        let started = ContinuousClock.now
        inFlight.increment()
        defer {
            inFlight.decrement()
            let (seconds, attoseconds) = started.duration(to: .now).components
            duration.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
        // Only under a request's span: the background jobs' transactions, every few seconds on
        // every instance, would otherwise each start a trace of their own. They are measured.
        guard let tracer, let parent = ServiceContext.current else {
            return try await counted { try await upstream.transaction(lockKeys: lockKeys, body) }
        }
        return try await tracer.withSpan("\(engine) transaction", context: parent, ofKind: .client) { span in
            span.attributes["db.system"] = engine
            span.attributes["concierge.db.lock_keys"] = lockKeys.count
            // `withSpan` records a thrown error on the span.
            return try await counted { try await upstream.transaction(lockKeys: lockKeys, body) }
        }
    }

    private func counted<T>(_ transaction: () async throws -> T) async throws -> T {
        do {
            return try await transaction()
        } catch let error as ConciergeError {
            // A rule said no (a seat taken, a hold lapsed) and the transaction rolled back as it
            // should: the database did its job.
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            errors.increment()
            throw error
        }
    }

    func close() async throws {
        try await upstream.close()
    }
}
