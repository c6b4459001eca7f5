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
/// Beside them, `seatBuyers` verified events buyers loop `POST /events/api/seat-checkout` (best
/// available and named front-row seats, racing each other) on 2,000-seat shows and pay in the
/// sandbox checkout; in the first `unpaidHoldRounds` rounds every third buyer holds seats on
/// shows of their own and never pays. After each restart the payment in flight is made again,
/// and then:
///
/// - every seat order the sandbox answered `303` for ends `confirmed` with the seats it was opened
///   with, all `sold` on the show's seat map (`GET /events/api/shows/{id}/seats`);
/// - no seat is in two confirmed orders (nor in two orders the buyers paid for), and the seat
///   map's sold seats are exactly the confirmed orders' seats;
/// - at the end, once the last unpaid hold has lapsed (holds last one minute, the server's
///   minimum), every unpaid order is `expired` and its shows have every seat available again.
///
/// Beside them, `staysBuyers` stays guests reserve one or two of the round's nights in a hotel
/// of three prepaid Doubles and three Individuals paid at the hotel (`Idempotency-Key`, now and
/// then sent twice), and pay in the sandbox and keep, pay and cancel, cancel unpaid, or pay and
/// cancel at once; a night sold out makes them cancel the oldest one they kept. After each
/// restart the stays request in flight is sent again (a reservation must come back the same).
///
/// After the last round (and the last lapse) the drill reads the database itself
/// (`DrillDatabaseAudit`), per vertical: no unit held and sold beyond its capacity nor beyond
/// what its holds hold, no stays night with more confirmed reservations than rooms; every
/// acknowledged order there with its payment row; every payment the sandbox answered as paid
/// `paid`, its order confirmed, or cancelled or refunded with everything but the cancellation fee
/// given back; no refund owed left unpaid; `orders.status` the vertical's own state mapped.
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
    /// Events buyers beside the rides clients (0: rides only).
    public var seatBuyers = 6
    /// The rounds, from the first, in which every third buyer leaves its holds unpaid; nil: every
    /// round. The drill waits for the last of those holds to lapse (one minute after that round's
    /// kill) before its final check, so fewer rounds with unpaid holds make a shorter drill.
    public var unpaidHoldRounds: Int?
    /// Stays guests beside them (0: no stays load).
    public var staysBuyers = 4
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

        // The per-customer caps off (the HTTP benchmark's list): a few customers place hundreds of orders.
        var environment = HTTPBenchmark.rateLimits.merging(try StaysDrillFixture.serverEnvironment(in: directory)) {
            $1
        }
        environment["CONCIERGE_MODE"] = "dev"
        environment["CONCIERGE_PAYMENT_PROVIDER"] = "sandbox"
        environment["CONCIERGE_WORKER_INTERVAL_SECONDS"] = "1"
        environment["CONCIERGE_LOG_LEVEL"] = serverLogLevel
        environment["CONCIERGE_ADMIN_TOKEN"] = EventsLoadFixture.adminToken
        environment["CONCIERGE_EVENTS_HOLD_MINUTES"] = String(Self.holdMinutes)
        // The buyers' passwords are never checked again: the cheapest bcrypt keeps sign-up short.
        environment["CONCIERGE_BCRYPT_COST"] = "4"
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
        let seatFixture: SeatDrillFixture?
        let staysFixture: StaysDrillFixture?
        do {
            fixture = try await Self.guarded(server, limit: .seconds(120), "signing in") {
                try await DrillFixture.prepare(port: server.port, customers: connections)
            }
            seatFixture =
                seatBuyers > 0
                ? try await Self.guarded(server, limit: .seconds(120), "setting up the seat buyers") {
                    try await SeatDrillFixture.prepare(port: server.port, buyers: seatBuyers)
                } : nil
            staysFixture =
                staysBuyers > 0
                ? try await Self.guarded(server, limit: .seconds(120), "signing up the stays guests") {
                    try await StaysDrillFixture.prepare(port: server.port, guests: staysBuyers)
                } : nil
        } catch {
            server.stop()
            throw error
        }
        // Generous: verification waits at most `settleTimeout` for payments and for confirmations.
        let verificationLimit = settleTimeout * 2 + .seconds(120)

        var seats = SeatDrillState(settleTimeout: settleTimeout)
        var stays = StaysDrillState()
        var staysSoldOut = 0
        // When the last round with unpaid holds was killed: every unpaid hold lapses by then + the hold time.
        var lastUnpaidHoldsKill: Date?
        var timedOut = false
        var perRound: [CrashDrillReport.Round] = []
        for round in 1...max(1, rounds) {
            let delay = Double.random(in: crashAfter, using: &rng)
            let replaySalt = Int(rng.next() % 1000)
            let signal = CrashSignal()
            let payments = PaymentCount()
            let seatPayments = PaymentCount()
            let unpaidHolds = PaymentCount()
            let staysPayments = PaymentCount()
            let holdsUnpaid = seatFixture != nil && round <= (unpaidHoldRounds ?? Int.max)
            let loadBegan = ContinuousClock.now
            let load = Task { [server, connections, replayEvery] in
                await DrillLoad(
                    port: server.port, fixture: fixture, round: round, replayEvery: replayEvery,
                    replaySalt: replaySalt, signal: signal, paymentsAcknowledged: payments
                ).run(connections: connections)
            }
            let seatLoad = Task { [server] in
                guard let seatFixture else { return [SeatBuyerOutcome]() }
                return await SeatDrillLoad(
                    port: server.port, fixture: seatFixture, round: round, unpaidHolds: holdsUnpaid, signal: signal,
                    paymentsAcknowledged: seatPayments, holdsLeftUnpaid: unpaidHolds
                ).run()
            }
            let staysLoad = Task { [server, seed, replayEvery] in
                guard let staysFixture else { return [StaysBuyerOutcome]() }
                return await StaysDrillLoad(
                    port: server.port, fixture: staysFixture, round: round, seed: seed, replayEvery: replayEvery,
                    signal: signal, paymentsAcknowledged: staysPayments
                ).run()
            }
            try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
            // Not before the round's first acknowledged payment (bounded): on a busy machine the
            // delay alone can end a round before any payment, leaving payments unchecked. The same
            // for the first paid seat order, the first unpaid hold and the first paid stay.
            let waitForPayment = ContinuousClock.now
            while payments.value == 0 || (seatFixture != nil && seatPayments.value == 0)
                || (holdsUnpaid && unpaidHolds.value == 0) || (staysFixture != nil && staysPayments.value == 0),
                ContinuousClock.now - waitForPayment < .seconds(30)
            {
                try await Task.sleep(for: .milliseconds(10))
            }
            let killedAfter = ContinuousClock.now - loadBegan
            signal.fire()
            server.crash()
            let outcomes = await load.value
            let seatOutcomes = await seatLoad.value
            let staysOutcomes = await staysLoad.value
            if holdsUnpaid { lastUnpaidHoldsKill = Date() }

            let restartBegan = ContinuousClock.now
            server = try await startServer()
            let restart = ContinuousClock.now - restartBegan
            await seatFixture?.serve(on: server.port)

            var tally = RoundTally()
            for outcome in outcomes { state.absorb(outcome, round: round, into: &tally) }
            var seatTally = SeatRoundTally()
            for outcome in seatOutcomes { seats.absorb(outcome, into: &seatTally) }
            var staysTally = StaysRoundTally()
            for outcome in staysOutcomes { stays.absorb(outcome, round: round, into: &staysTally) }
            do {
                try await Self.guarded(server, limit: verificationLimit, "checking round \(round)") { [server] in
                    try await HTTPConnection.with(host: "127.0.0.1", port: server.port) { connection in
                        for pending in outcomes.compactMap(\.pending) {
                            try await state.retry(
                                pending, round: round, fixture: fixture, on: connection, into: &tally)
                        }
                        if let seatFixture {
                            for order in seatOutcomes.compactMap(\.pendingPayment) {
                                try await seats.retryPayment(
                                    order, fixture: seatFixture, on: connection, into: &seatTally)
                            }
                        }
                        if let staysFixture {
                            for pending in staysOutcomes.compactMap(\.pending) {
                                try await stays.retry(
                                    pending, round: round, fixture: staysFixture, on: connection, into: &staysTally)
                            }
                        }
                    }
                    try await state.verify(round: round, fixture: fixture, port: server.port, parallel: connections)
                    if let seatFixture { try await seats.verify(fixture: seatFixture, port: server.port) }
                }
            } catch let timeout as DrillTimeout {
                // A restarted server that stops answering is what the drill is for: report it.
                state.violation("round \(round): \(timeout)")
                timedOut = true
                break
            }
            let figures = CrashDrillReport.Round(
                round: round, crashAfterMilliseconds: Int(HTTPBenchmark.milliseconds(killedAfter)),
                bookingsAcknowledged: tally.bookings,
                paymentsAcknowledged: tally.payments, replays: tally.replays, retriedAfterRestart: tally.retried,
                retriesInProgress: tally.inProgress, loadErrors: tally.loadErrors,
                restartMilliseconds: Int(HTTPBenchmark.milliseconds(restart)),
                seatOrdersAcknowledged: seatTally.opened, seatOrdersPaid: seatTally.paid,
                holdsLeftUnpaid: seatTally.leftUnpaid, staysReserved: staysTally.reserved, staysPaid: staysTally.paid,
                staysCancelled: staysTally.cancelled)
            perRound.append(figures)
            staysSoldOut += staysTally.soldOut
            progress(
                "round \(round)/\(max(1, rounds)): killed after \(figures.crashAfterMilliseconds) ms — "
                    + "\(tally.bookings) bookings, \(tally.payments) payments acknowledged; "
                    + "\(tally.retried) in-flight retried (\(tally.inProgress) × 409 request_in_progress); "
                    + (seatFixture == nil
                        ? ""
                        : "\(seatTally.opened) seat orders, \(seatTally.paid) paid, \(seatTally.leftUnpaid) left unpaid; ")
                    + (staysFixture == nil
                        ? ""
                        : "\(staysTally.reserved) stays, \(staysTally.paid) paid, \(staysTally.cancelled) cancelled, "
                            + "\(staysTally.soldOut) × sold out; ")
                    + "restart \(figures.restartMilliseconds) ms; "
                    + "violations so far \(state.violations.count + seats.violations.count + stays.violations.count)"
                    + (tally.firstLoadError.map { "; first load error: \($0)" } ?? "")
                    + (seatTally.firstLoadError.map { "; first seat load error: \($0)" } ?? "")
                    + (staysTally.firstLoadError.map { "; first stays load error: \($0)" } ?? ""))
        }

        var lapsesChecked = lastUnpaidHoldsKill == nil
        if let seatFixture, let lastKill = lastUnpaidHoldsKill, !timedOut {
            // The worker releases lapsed holds once a second.
            let lapsed = lastKill.addingTimeInterval(Double(Self.holdMinutes * 60) + 2)
            let wait = lapsed.timeIntervalSinceNow
            if wait > 0 {
                progress("waiting \(Int(wait.rounded(.up))) s for the last unpaid holds to lapse")
                try await Task.sleep(for: .milliseconds(Int(wait * 1000)))
            }
            do {
                try await Self.guarded(server, limit: settleTimeout + .seconds(120), "checking the lapsed holds") {
                    [server] in
                    try await seats.verifyLapsedHolds(fixture: seatFixture, port: server.port)
                }
                lapsesChecked = true
            } catch let timeout as DrillTimeout {
                seats.violation("\(timeout)")
            }
        }

        // The database itself, per vertical, with the worker still running (it pays refunds owed).
        var audit: DrillDatabaseAudit.Result?
        if !timedOut {
            progress("auditing the database")
            let auditor = DrillDatabaseAudit(
                database: database, claims: state.claims + seats.claims + stays.claims, settleTimeout: settleTimeout)
            do {
                audit = try await Self.guarded(server, limit: settleTimeout + .seconds(120), "auditing the database") {
                    [server] in
                    try await auditor.run(port: server.port)
                }
            } catch let timeout as DrillTimeout {
                state.violation("\(timeout)")
            }
        }
        server.stop()

        let violations = state.violations + seats.violations + stays.violations + (audit?.violations ?? [])
        let keep = !violations.isEmpty
        if !keep { try? FileManager.default.removeItem(at: directory) }
        return CrashDrillReport(
            engine: database.engineName, rounds: perRound.count, connections: connections, seed: seed,
            perRound: perRound, bookingsAcknowledged: state.bookings.count,
            paymentsAcknowledged: state.payments.count, confirmationsChecked: state.confirmationsChecked,
            seats: seatFixture.map { _ in
                CrashDrillReport.Seats(
                    buyers: seatBuyers, ordersAcknowledged: seats.opened, ordersPaid: seats.paid.count,
                    seatsSold: seats.seatsSold, seatsSoldTwice: seats.seatsSoldTwice,
                    holdsLeftUnpaid: seats.unpaid.count, lapsedHoldsReleased: seats.lapsedHoldsReleased,
                    lapsesChecked: lapsesChecked)
            },
            stays: staysFixture.map { _ in
                CrashDrillReport.Stays(
                    guests: staysBuyers, reserved: stays.reservations.count, paid: stays.paid.count,
                    cancelled: stays.cancelled.count, soldOut: staysSoldOut)
            },
            verticals: audit?.verticals ?? [],
            violations: violations, seconds: HTTPBenchmark.seconds(ContinuousClock.now - started),
            serverLogs: keep ? directory.path : nil)
    }
}

extension CrashDrill {
    /// `CONCIERGE_EVENTS_HOLD_MINUTES` for the drill's server: the shortest the server takes.
    static let holdMinutes = 1

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
