import ConciergeModels
import Foundation

/// The crash reliability drill: kill -9 the server during a booking and payment load, restart it
/// on the same database, and check what the clients were told against what the server kept.
///
/// Each round runs `connections` clients, each on its own keep-alive connection and customer,
/// looping: `POST /rides/app-book` with an `Idempotency-Key` (now and then sent twice, as a
/// client that lost the answer would), then the sandbox checkout's `POST outcome=paid`. After a
/// random delay (seeded) the server is killed with SIGKILL while requests are in flight. It is
/// started again on the same database (on a new port), every request that was in flight is
/// retried with the same key and body — which must give the same booking or a clear 409
/// `request_in_progress`, never a second one — and then:
///
/// - every booking answered `200` is there for its owner (`GET /rides/bookings/{ref}`), with its
///   payment record (the sandbox checkout it was given still exists), and every booking of
///   earlier rounds is still in its owner's list;
/// - every payment the sandbox answered `303` for ends `confirmed` or `refunded` (polled, with the
///   return page visited, which asks the provider too);
/// - every confirmed booking has exactly one confirmation in the dev outbox (email when the
///   customer has an address, else SMS), polled until delivered or `settleTimeout`; repeats
///   are counted across all rounds, so a confirmation sent again after a later crash shows.
///
/// Customers sign in once; their sessions survive the restarts. The server runs in dev mode
/// with the sandbox provider, the worker every second and the per-IP sign-in limits raised.
public struct CrashDrill: Sendable {
    /// Where the drill's one database lives.
    public enum Database: Sendable, Equatable {
        case sqlite(path: String)
        case postgres(url: String)

        /// A `postgres://` or `postgresql://` URL, else an SQLite file path.
        public init(location: String) {
            let lowered = location.lowercased()
            self =
                lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
                ? .postgres(url: location) : .sqlite(path: location)
        }

        var engineName: String {
            switch self {
            case .sqlite: "sqlite"
            case .postgres: "postgresql"
            }
        }
    }

    public var rounds = 3
    public var connections = 8
    /// The database every round runs on; nil: an SQLite file in a temporary directory.
    public var database: Database?
    /// Seeds the crash delays and which bookings are sent twice: a failing run can be repeated.
    public var seed: UInt64 = 1
    /// The load runs this long (seconds, drawn per round) before the server is killed, and at
    /// least until its first payment is acknowledged.
    public var crashAfter: ClosedRange<Double> = 0.3...1.5
    /// How long verification waits for a payment to settle or a confirmation to be delivered.
    public var settleTimeout: Duration = .seconds(20)
    /// Every how many bookings a client sends the same request again, as after a lost answer.
    public var replayEvery = 4
    public var serverLogLevel = "info"
    /// The server binary; this executable (`concierge`) by default.
    public var executable = ServerProcess.ownExecutable

    public init() {}

    /// Runs every round; throws only when the drill itself cannot go on (the server does not
    /// start, sign-in fails). What the server got wrong is in the report's `violations`.
    public func run(progress: @Sendable (String) -> Void = { _ in }) async throws -> CrashDrillReport {
        let started = ContinuousClock.now
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "concierge-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = self.database ?? .sqlite(path: directory.appendingPathComponent("crash.sqlite").path)

        var environment = HTTPBenchmark.rateLimits
        environment["CONCIERGE_MODE"] = "dev"
        environment["CONCIERGE_PAYMENT_PROVIDER"] = "sandbox"
        environment["CONCIERGE_WORKER_INTERVAL_SECONDS"] = "1"
        environment["CONCIERGE_LOG_LEVEL"] = serverLogLevel
        switch database {
        case .sqlite(let path): environment["CONCIERGE_SQLITE_PATH"] = path
        case .postgres(let url): environment["DATABASE_URL"] = url
        }

        var state = DrillState(settleTimeout: settleTimeout)
        var rng = SplitMix64(seed: seed)
        var starts = 0
        func startServer() async throws -> ServerProcess {
            var failure: (any Error)?
            // A port another process took first makes the server exit at once: try another.
            for _ in 0..<5 {
                starts += 1
                let server = try ServerProcess(
                    executable: executable, port: try await ServerProcess.freePortOutsideEphemeralRange(),
                    environment: environment, logPath: directory.appendingPathComponent("server-\(starts).log").path)
                do {
                    try await server.start(timeout: .seconds(60))
                    return server
                } catch {
                    server.crash()
                    failure = error
                }
            }
            throw failure ?? LoadError("the server did not start")
        }

        var server = try await startServer()
        progress("server ready in \(HTTPBenchmark.milliseconds(server.startToReady)) ms on port \(server.port)")
        let fixture: DrillFixture
        do {
            fixture = try await Self.guarded(server, limit: .seconds(120), "signing in") {
                try await DrillFixture.prepare(port: server.port, customers: connections)
            }
        } catch {
            server.stop()
            throw error
        }
        // Generous: verification waits at most `settleTimeout` for payments and for confirmations.
        let verificationLimit = settleTimeout * 2 + .seconds(120)

        var perRound: [CrashDrillReport.Round] = []
        for round in 1...max(1, rounds) {
            let delay = Double.random(in: crashAfter, using: &rng)
            let replaySalt = Int(rng.next() % 1000)
            let signal = CrashSignal()
            let payments = PaymentCount()
            let loadBegan = ContinuousClock.now
            let load = Task { [server, connections, replayEvery] in
                await DrillLoad(
                    port: server.port, fixture: fixture, round: round, replayEvery: replayEvery,
                    replaySalt: replaySalt, signal: signal, paymentsAcknowledged: payments
                ).run(connections: connections)
            }
            try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
            // Not before the round's first acknowledged payment (bounded): on a busy machine the
            // delay alone can end a round before any payment, leaving payments unchecked.
            let waitForPayment = ContinuousClock.now
            while payments.value == 0, ContinuousClock.now - waitForPayment < .seconds(30) {
                try await Task.sleep(for: .milliseconds(10))
            }
            let killedAfter = ContinuousClock.now - loadBegan
            signal.fire()
            server.crash()
            let outcomes = await load.value

            let restartBegan = ContinuousClock.now
            server = try await startServer()
            let restart = ContinuousClock.now - restartBegan

            var tally = RoundTally()
            for outcome in outcomes { state.absorb(outcome, round: round, into: &tally) }
            do {
                try await Self.guarded(server, limit: verificationLimit, "checking round \(round)") { [server] in
                    try await HTTPConnection.with(host: "127.0.0.1", port: server.port) { connection in
                        for pending in outcomes.compactMap(\.pending) {
                            try await state.retry(
                                pending, round: round, fixture: fixture, on: connection, into: &tally)
                        }
                    }
                    try await state.verify(round: round, fixture: fixture, port: server.port, parallel: connections)
                }
            } catch let timeout as DrillTimeout {
                // A restarted server that stops answering is what the drill is for: report it.
                state.violation("round \(round): \(timeout)")
                break
            }
            let figures = CrashDrillReport.Round(
                round: round, crashAfterMilliseconds: Int(HTTPBenchmark.milliseconds(killedAfter)),
                bookingsAcknowledged: tally.bookings,
                paymentsAcknowledged: tally.payments, replays: tally.replays, retriedAfterRestart: tally.retried,
                retriesInProgress: tally.inProgress, loadErrors: tally.loadErrors,
                restartMilliseconds: Int(HTTPBenchmark.milliseconds(restart)))
            perRound.append(figures)
            progress(
                "round \(round)/\(max(1, rounds)): killed after \(figures.crashAfterMilliseconds) ms — "
                    + "\(tally.bookings) bookings, \(tally.payments) payments acknowledged; "
                    + "\(tally.retried) in-flight retried (\(tally.inProgress) × 409 request_in_progress); "
                    + "restart \(figures.restartMilliseconds) ms; violations so far \(state.violations.count)"
                    + (tally.firstLoadError.map { "; first load error: \($0)" } ?? ""))
        }
        server.stop()

        let keep = !state.violations.isEmpty
        if !keep { try? FileManager.default.removeItem(at: directory) }
        return CrashDrillReport(
            engine: database.engineName, rounds: perRound.count, connections: connections, seed: seed,
            perRound: perRound, bookingsAcknowledged: state.bookings.count,
            paymentsAcknowledged: state.payments.count, confirmationsChecked: state.confirmationsChecked,
            violations: state.violations, seconds: HTTPBenchmark.seconds(ContinuousClock.now - started),
            serverLogs: keep ? directory.path : nil)
    }
}

extension CrashDrill {
    /// Runs `body` against `server`, killing the server after `limit`: a server that stops
    /// answering ends the step with `DrillTimeout` instead of hanging the drill (its requests
    /// fail once it is gone).
    static func guarded<T>(
        _ server: ServerProcess, limit: Duration, _ what: String, _ body: () async throws -> T
    ) async throws -> T {
        let expired = CrashSignal()
        let watchdog = Task {
            try await Task.sleep(for: limit)
            expired.fire()
            server.crash()
        }
        defer { watchdog.cancel() }
        do {
            return try await body()
        } catch {
            if expired.happened {
                throw DrillTimeout(
                    description: "\(what): the server did not answer within \(limit); see \(server.logPath)")
            }
            throw error
        }
    }
}

struct DrillTimeout: Error, CustomStringConvertible {
    let description: String
}
