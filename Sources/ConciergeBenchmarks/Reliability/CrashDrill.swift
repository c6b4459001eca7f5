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
    /// The load runs this long (seconds, drawn per round) before the server is killed.
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
            let load = Task { [server, connections, replayEvery] in
                await DrillLoad(
                    port: server.port, fixture: fixture, round: round, replayEvery: replayEvery,
                    replaySalt: replaySalt, signal: signal
                ).run(connections: connections)
            }
            try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
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
                round: round, crashAfterMilliseconds: Int(delay * 1000), bookingsAcknowledged: tally.bookings,
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

/// What a drill found.
public struct CrashDrillReport: Sendable, Codable {
    public struct Round: Sendable, Codable {
        public let round: Int
        /// How long the load ran before kill -9.
        public let crashAfterMilliseconds: Int
        /// Bookings answered 200 (during the load and on the retries after the restart).
        public let bookingsAcknowledged: Int
        /// Sandbox payments answered 303 after `outcome=paid`.
        public let paymentsAcknowledged: Int
        /// Booking requests sent twice with one key (both must name the same booking).
        public let replays: Int
        /// Requests in flight at the kill, sent again to the restarted server.
        public let retriedAfterRestart: Int
        /// Of those, booking retries answered 409 `request_in_progress`.
        public let retriesInProgress: Int
        /// Unexpected answers before the kill (not violations, but worth a look).
        public let loadErrors: Int
        public let restartMilliseconds: Int
    }

    public let engine: String
    public let rounds: Int
    public let connections: Int
    public let seed: UInt64
    public let perRound: [Round]
    public let bookingsAcknowledged: Int
    public let paymentsAcknowledged: Int
    /// Confirmed bookings whose confirmations were counted in the dev outbox.
    public let confirmationsChecked: Int
    public let violations: [String]
    public let seconds: Double
    /// The servers' logs, kept when there were violations.
    public let serverLogs: String?

    public var passed: Bool { violations.isEmpty }

    /// The short table `concierge reliability crash` prints.
    public var table: String {
        var lines = [
            "crash drill · \(engine) · \(rounds) rounds · \(connections) connections · seed \(seed) · "
                + String(format: "%.1f s", seconds),
            "",
        ]
        let header = ["round", "killed after", "bookings", "payments", "replays", "retried", "409", "errors"]
        var rows = [header]
        for round in perRound {
            rows.append([
                String(round.round), "\(round.crashAfterMilliseconds) ms", String(round.bookingsAcknowledged),
                String(round.paymentsAcknowledged), String(round.replays), String(round.retriedAfterRestart),
                String(round.retriesInProgress), String(round.loadErrors),
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            lines.append(
                row.enumerated().map { column, cell in
                    String(repeating: " ", count: widths[column] - cell.count) + cell
                }.joined(separator: "  "))
        }
        lines.append("")
        lines.append("bookings acknowledged   \(bookingsAcknowledged)")
        lines.append("payments acknowledged   \(paymentsAcknowledged)")
        lines.append("confirmations checked   \(confirmationsChecked)")
        if violations.isEmpty {
            lines.append("violations              none")
        } else {
            lines.append("violations              \(violations.count)")
            for violation in violations.prefix(50) { lines.append("  - \(violation)") }
            if violations.count > 50 { lines.append("  … \(violations.count - 50) more (see --json)") }
            if let serverLogs { lines.append("server logs kept in \(serverLogs)") }
        }
        return lines.joined(separator: "\n")
    }

    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

// MARK: - Clients

/// The drill's customers (half with an email address, so both confirmation channels are
/// checked) and the places they ride between.
struct DrillFixture: Sendable {
    struct Customer: Sendable {
        let phone: String
        let email: String?
        let token: String
        /// Where the confirmation goes: email when there is an address, else SMS.
        var recipient: String { email ?? phone }
    }

    let customers: [Customer]
    let trips: BenchmarkFixture

    static func prepare(port: Int, customers count: Int) async throws -> DrillFixture {
        // New phone numbers every run, so a reused PostgreSQL database never hits the per-phone
        // resend limit.
        let run = Int.random(in: 0..<9_000_000)
        return try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
            let places = try await BenchmarkFixture.lookUpPlaces(on: connection)
            var customers: [Customer] = []
            for index in 0..<max(1, count) {
                let phone = BenchmarkFixture.phone(prefix: 77, number: run + index)
                let token = try await BenchmarkFixture.signIn(phone: phone, on: connection)
                var email: String?
                if index.isMultiple(of: 2) {
                    let address = "crash-\(run + index)@example.com"
                    let updated = try await connection.send(
                        LoadRequest(
                            method: .PATCH, uri: "/rides/me",
                            headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")],
                            body: #"{"name":"Crash Drill \#(index)","email":"\#(address)"}"#))
                    try updated.expect(200, "PATCH /rides/me")
                    email = address
                }
                customers.append(Customer(phone: phone, email: email, token: token))
            }
            return DrillFixture(
                customers: customers,
                trips: BenchmarkFixture(
                    places: places, sessionTokens: customers.map(\.token), firstPickup: BenchmarkFixture.firstPickup()))
        }
    }
}

/// Set just before the kill, so a client can tell the crash from an unexpected failure.
final class CrashSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var fired = false

    var happened: Bool { lock.withLock { fired } }
    func fire() { lock.withLock { fired = true } }
}

struct AcknowledgedBooking: Sendable {
    let reference: String
    let customer: Int
    let key: String
    let checkoutPath: String
    let round: Int
}

struct AcknowledgedPayment: Sendable {
    let reference: String
    let customer: Int
    /// The return page the 303 sent the browser to (`/rides/booking-confirmed?ref=…&t=…`).
    let returnPath: String
    let round: Int
}

/// A request that got no answer because the server died.
enum PendingRequest: Sendable {
    case book(key: String, body: String, customer: Int, knownReference: String?)
    case pay(reference: String, checkoutPath: String, customer: Int)
}

/// What one client saw in one round.
struct ClientOutcome: Sendable {
    var bookings: [AcknowledgedBooking] = []
    var payments: [AcknowledgedPayment] = []
    var violations: [String] = []
    var replays = 0
    var loadErrors = 0
    var firstLoadError: String?
    var pending: PendingRequest?

    mutating func loadError(_ what: String) {
        loadErrors += 1
        if firstLoadError == nil { firstLoadError = what }
    }
}

enum DrillRequests {
    static func book(key: String, body: String, token: String) -> LoadRequest {
        .postJSON("/rides/app-book", body, token: token, headers: [("Idempotency-Key", key)])
    }

    static func pay(_ checkoutPath: String) -> LoadRequest {
        LoadRequest(
            method: .POST, uri: checkoutPath, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "outcome=paid")
    }

    /// The path and query of a URL the server gave out (its port changes with every restart).
    static func path(of url: String) -> String? {
        guard let components = URLComponents(string: url), !components.path.isEmpty else { return nil }
        return components.percentEncodedQuery.map { "\(components.percentEncodedPath)?\($0)" }
            ?? components.percentEncodedPath
    }

    static func errorCode(_ response: LoadResponse) -> String? {
        (try? JSONSerialization.jsonObject(with: response.data) as? [String: Any])?["code"] as? String
    }

    static func describe(_ response: LoadResponse) -> String {
        "\(response.status) \(String(decoding: response.data.prefix(160), as: UTF8.self))"
    }
}

/// The load of one round: `connections` clients until the server dies.
struct DrillLoad: Sendable {
    let port: Int
    let fixture: DrillFixture
    let round: Int
    let replayEvery: Int
    let replaySalt: Int
    let signal: CrashSignal

    func run(connections: Int) async -> [ClientOutcome] {
        await withTaskGroup(of: ClientOutcome.self) { group in
            for client in 0..<connections {
                group.addTask { await self.client(client) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    private func client(_ client: Int) async -> ClientOutcome {
        var outcome = ClientOutcome()
        let customerIndex = client % fixture.customers.count
        let token = fixture.customers[customerIndex].token
        var iteration = 0
        while !signal.happened {
            do {
                try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
                    // A booking that failed without a crash is sent again first, with its key, as a
                    // client would after a connection error; the drill checks that one key never
                    // names two bookings.
                    if case .book(let key, let body, _, _) = outcome.pending {
                        let again = try await connection.send(DrillRequests.book(key: key, body: body, token: token))
                        outcome.pending = nil
                        if again.status == 200, let booking = try? again.decode(BookingResponse.self),
                            let reference = booking.quoteReference,
                            let checkoutPath = booking.checkoutUrl.flatMap(DrillRequests.path(of:))
                        {
                            outcome.bookings.append(
                                AcknowledgedBooking(
                                    reference: reference, customer: customerIndex, key: key,
                                    checkoutPath: checkoutPath, round: round))
                        }
                    }
                    outcome.pending = nil
                    while !signal.happened {
                        iteration += 1
                        try await once(
                            connection, client: client, customer: customerIndex, token: token, iteration: iteration,
                            outcome: &outcome)
                    }
                }
            } catch {
                if signal.happened { break }
                outcome.loadError("\(error)")
            }
        }
        return outcome
    }

    private func once(
        _ connection: HTTPConnection, client: Int, customer: Int, token: String, iteration: Int,
        outcome: inout ClientOutcome
    ) async throws {
        let key = "crash-r\(round)-c\(client)-\(iteration)-\(UUID().uuidString.prefix(8))"
        let body = fixture.trips.bookingBody(round * 100_003 + client * 7919 + iteration)
        outcome.pending = .book(key: key, body: body, customer: customer, knownReference: nil)
        let booked = try await connection.send(DrillRequests.book(key: key, body: body, token: token))
        outcome.pending = nil
        guard booked.status == 200 else {
            outcome.loadError("app-book: \(DrillRequests.describe(booked))")
            return
        }
        let response = try booked.decode(BookingResponse.self)
        guard let reference = response.quoteReference,
            let checkoutPath = response.checkoutUrl.flatMap(DrillRequests.path(of:))
        else {
            outcome.violations.append("app-book answered 200 without a reference or checkout: \(response)")
            return
        }
        outcome.bookings.append(
            AcknowledgedBooking(
                reference: reference, customer: customer, key: key, checkoutPath: checkoutPath, round: round))

        if replayEvery > 0, (iteration + replaySalt).isMultiple(of: replayEvery) {
            // The same request again, as a client whose answer was lost: the same booking back.
            outcome.pending = .book(key: key, body: body, customer: customer, knownReference: reference)
            let again = try await connection.send(DrillRequests.book(key: key, body: body, token: token))
            outcome.pending = nil
            outcome.replays += 1
            let replayed = again.status == 200 ? (try? again.decode(BookingResponse.self))?.quoteReference : nil
            if replayed != reference {
                outcome.violations.append(
                    "Idempotency-Key \(key) answered \(reference), then \(DrillRequests.describe(again)) on a replay")
            }
        }

        outcome.pending = .pay(reference: reference, checkoutPath: checkoutPath, customer: customer)
        let paid = try await connection.send(DrillRequests.pay(checkoutPath))
        outcome.pending = nil
        guard paid.status == 303, let location = paid.headers.first(name: "Location"),
            let returnPath = DrillRequests.path(of: location)
        else {
            outcome.loadError("sandbox checkout \(reference): \(DrillRequests.describe(paid))")
            return
        }
        outcome.payments.append(
            AcknowledgedPayment(reference: reference, customer: customer, returnPath: returnPath, round: round))
    }
}

// MARK: - Checking

struct RoundTally {
    var bookings = 0
    var payments = 0
    var replays = 0
    var retried = 0
    var inProgress = 0
    var loadErrors = 0
    var firstLoadError: String?
}

/// Everything acknowledged so far, and what was found wrong.
struct DrillState {
    let settleTimeout: Duration
    /// By reference, in the order acknowledged.
    private(set) var bookings: [String: AcknowledgedBooking] = [:]
    private var bookingOrder: [String] = []
    private(set) var payments: [String: AcknowledgedPayment] = [:]
    /// The booking each Idempotency-Key was answered with.
    private var referenceByKey: [String: String] = [:]
    /// The last status seen for each acknowledged booking.
    private var statuses: [String: String] = [:]
    private var verifiedBookings: Set<String> = []
    private(set) var violations: [String] = []
    private var reported: Set<String> = []
    private(set) var confirmationsChecked = 0

    init(settleTimeout: Duration) {
        self.settleTimeout = settleTimeout
    }

    mutating func violation(_ text: String) {
        if reported.insert(text).inserted { violations.append(text) }
    }

    mutating func absorb(_ outcome: ClientOutcome, round: Int, into tally: inout RoundTally) {
        for booking in outcome.bookings { acknowledge(booking, into: &tally) }
        for payment in outcome.payments { acknowledge(payment, into: &tally) }
        for text in outcome.violations { violation("round \(round): \(text)") }
        tally.replays += outcome.replays
        tally.loadErrors += outcome.loadErrors
        if tally.firstLoadError == nil { tally.firstLoadError = outcome.firstLoadError }
    }

    private mutating func acknowledge(_ booking: AcknowledgedBooking, into tally: inout RoundTally) {
        if let earlier = referenceByKey[booking.key], earlier != booking.reference {
            violation(
                "Idempotency-Key \(booking.key) made two bookings: \(earlier) and \(booking.reference)")
        }
        referenceByKey[booking.key] = booking.reference
        guard bookings[booking.reference] == nil else { return }
        bookings[booking.reference] = booking
        bookingOrder.append(booking.reference)
        tally.bookings += 1
    }

    private mutating func acknowledge(_ payment: AcknowledgedPayment, into tally: inout RoundTally) {
        guard payments[payment.reference] == nil else { return }
        payments[payment.reference] = payment
        tally.payments += 1
    }

    /// Sends a request that was in flight at the kill again, as the client would.
    mutating func retry(
        _ pending: PendingRequest, round: Int, fixture: DrillFixture, on connection: HTTPConnection,
        into tally: inout RoundTally
    ) async throws {
        tally.retried += 1
        switch pending {
        case .book(let key, let body, let customer, let known):
            let token = fixture.customers[customer].token
            var answered = known
            // Twice: the second must repeat the first (or both be in progress).
            for _ in 0..<2 {
                let response = try await connection.send(DrillRequests.book(key: key, body: body, token: token))
                if response.status == 409, DrillRequests.errorCode(response) == "request_in_progress" {
                    tally.inProgress += 1
                    return
                }
                guard response.status == 200, let booking = try? response.decode(BookingResponse.self),
                    let reference = booking.quoteReference,
                    let checkoutPath = booking.checkoutUrl.flatMap(DrillRequests.path(of:))
                else {
                    violation(
                        "round \(round): the retry of Idempotency-Key \(key) after the restart answered \(DrillRequests.describe(response)), not the booking or 409 request_in_progress"
                    )
                    return
                }
                if let answered, answered != reference {
                    violation(
                        "round \(round): Idempotency-Key \(key) answered \(answered), then \(reference) after the restart"
                    )
                }
                answered = reference
                acknowledge(
                    AcknowledgedBooking(
                        reference: reference, customer: customer, key: key, checkoutPath: checkoutPath, round: round),
                    into: &tally)
            }
        case .pay(let reference, let checkoutPath, let customer):
            let response = try await connection.send(DrillRequests.pay(checkoutPath))
            guard response.status == 303, let location = response.headers.first(name: "Location"),
                let returnPath = DrillRequests.path(of: location)
            else {
                violation(
                    "round \(round): \(reference): paying its checkout again after the restart answered \(DrillRequests.describe(response))"
                )
                return
            }
            acknowledge(
                AcknowledgedPayment(reference: reference, customer: customer, returnPath: returnPath, round: round),
                into: &tally)
        }
    }

    /// Checks every booking and payment acknowledged so far: the ones new since the last check
    /// one by one (`GET /rides/bookings/{ref}` and their checkout), all of them through their
    /// owners' booking lists; then the confirmations of every confirmed booking so far.
    mutating func verify(round: Int, fixture: DrillFixture, port: Int, parallel: Int) async throws {
        // (a) and the payment record, for the bookings acknowledged since the last check.
        let new = bookingOrder.filter { !verifiedBookings.contains($0) }.compactMap { bookings[$0] }
        for result in try await Self.checkOneByOne(new, fixture: fixture, port: port, parallel: parallel) {
            verifiedBookings.insert(result.reference)
            if let status = result.status { statuses[result.reference] = status }
            for problem in result.problems { violation(problem) }
        }

        try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
            // (a) again for every booking so far, an earlier round's too: each is in its owner's list.
            var listed: [String: BookingSummary] = [:]
            for customer in fixture.customers {
                var offset: Int? = 0
                while let from = offset {
                    let page = try await connection.send(
                        .get("/rides/bookings?limit=100&offset=\(from)", token: customer.token))
                    try page.expect(200, "GET /rides/bookings")
                    let list = try page.decode(BookingListResponse.self)
                    for booking in list.bookings { listed[booking.reference] = booking }
                    offset = list.nextOffset
                }
            }
            for reference in bookingOrder {
                guard let booking = bookings[reference] else { continue }
                guard let summary = listed[reference] else {
                    violation(
                        "\(reference) (round \(booking.round)) was answered 200 but is missing from its owner's GET /rides/bookings"
                    )
                    continue
                }
                statuses[reference] = summary.status
            }

            // (b) every payment answered as paid ends confirmed or refunded.
            let clock = ContinuousClock()
            let deadline = clock.now + settleTimeout
            for reference in payments.keys.sorted() {
                guard let payment = payments[reference] else { continue }
                var status = statuses[reference]
                while status != "confirmed" && status != "refunded" && clock.now < deadline {
                    // The return page asks the provider and applies what it says.
                    _ = try await connection.send(.get(payment.returnPath))
                    let token = fixture.customers[payment.customer].token
                    let detail = try await connection.send(.get("/rides/bookings/\(reference)", token: token))
                    status =
                        (try? detail.decode(BookingDetailResponse.self))?.booking.status ?? "HTTP \(detail.status)"
                    if status != "confirmed" && status != "refunded" { try await Task.sleep(for: .milliseconds(200)) }
                }
                statuses[reference] = status
                if status != "confirmed" && status != "refunded" {
                    violation(
                        "\(reference) (round \(payment.round)): the sandbox checkout answered 303 for outcome=paid, but the booking is \(status ?? "missing")"
                    )
                }
            }

            try await checkConfirmations(fixture: fixture, on: connection)
        }
    }

    struct BookingCheck: Sendable {
        let reference: String
        let status: String?
        let problems: [String]
    }

    /// `GET /rides/bookings/{ref}` with the owner's token and the sandbox checkout the booking
    /// was answered with, on `parallel` connections.
    static func checkOneByOne(_ bookings: [AcknowledgedBooking], fixture: DrillFixture, port: Int, parallel: Int)
        async throws -> [BookingCheck]
    {
        let lanes = max(1, min(parallel, bookings.count))
        return try await withThrowingTaskGroup(of: [BookingCheck].self) { group in
            for lane in 0..<lanes {
                let share = stride(from: lane, to: bookings.count, by: lanes).map { bookings[$0] }
                group.addTask {
                    try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
                        var checks: [BookingCheck] = []
                        for booking in share {
                            checks.append(try await check(booking, fixture: fixture, on: connection))
                        }
                        return checks
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    private static func check(_ booking: AcknowledgedBooking, fixture: DrillFixture, on connection: HTTPConnection)
        async throws -> BookingCheck
    {
        let reference = booking.reference
        let token = fixture.customers[booking.customer].token
        let detail = try await connection.send(.get("/rides/bookings/\(reference)", token: token))
        guard detail.status == 200, let summary = try? detail.decode(BookingDetailResponse.self).booking else {
            return BookingCheck(
                reference: reference, status: nil,
                problems: [
                    "\(reference) (round \(booking.round)) was answered 200 but after the restart GET /rides/bookings/\(reference) answered \(DrillRequests.describe(detail))"
                ])
        }
        var problems: [String] = []
        let checkout = try await connection.send(.get(booking.checkoutPath))
        if checkout.status != 200 {
            problems.append(
                "\(reference) (round \(booking.round)) exists without its payment: \(booking.checkoutPath) answers \(checkout.status)"
            )
        }
        if summary.status == "awaiting_payment",
            summary.checkoutUrl.flatMap(DrillRequests.path(of:)) != booking.checkoutPath
        {
            problems.append(
                "\(reference) (round \(booking.round)) awaits payment but shows checkout \(summary.checkoutUrl ?? "none"), not \(booking.checkoutPath)"
            )
        }
        return BookingCheck(reference: reference, status: summary.status, problems: problems)
    }

    /// Every confirmed booking so far has exactly one confirmation in the dev outbox, and no
    /// other booking has one.
    private mutating func checkConfirmations(fixture: DrillFixture, on connection: HTTPConnection) async throws {
        let confirmed = Set(statuses.filter { $0.value == "confirmed" }.keys)
        let clock = ContinuousClock()
        let deadline = clock.now + settleTimeout
        var counts: [String: Int] = [:]
        while true {
            counts = [:]
            for (index, customer) in fixture.customers.enumerated() {
                let response = try await connection.send(.get("/dev/outbox?to=\(customer.recipient.queryEscaped)"))
                try response.expect(200, "dev outbox")
                let listing = try JSONSerialization.jsonObject(with: response.data) as? [String: Any]
                for message in listing?["messages"] as? [[String: Any]] ?? [] {
                    if let reference = Self.confirmedReference(in: message, customer: customer),
                        bookings[reference]?.customer == index
                    {
                        counts[reference, default: 0] += 1
                    }
                }
            }
            if confirmed.allSatisfy({ counts[$0, default: 0] >= 1 }) || clock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(250))
        }
        confirmationsChecked = confirmed.count
        for reference in confirmed.sorted() {
            let count = counts[reference, default: 0]
            let recipient = bookings[reference].map { fixture.customers[$0.customer].recipient } ?? "?"
            if count == 0 {
                violation("\(reference) is confirmed but no confirmation reached \(recipient) within \(settleTimeout)")
            } else if count > 1 {
                violation("\(reference) is confirmed and \(recipient) got \(count) confirmations, not one")
            }
        }
        for (reference, count) in counts.sorted(by: { $0.key < $1.key }) where !confirmed.contains(reference) {
            violation(
                "\(reference) got \(count) confirmation(s) but is \(statuses[reference] ?? "not verified yet")")
        }
    }

    /// The booking a dev outbox message confirms, if it is a confirmation.
    static func confirmedReference(in message: [String: Any], customer: DrillFixture.Customer) -> String? {
        let channel = message["channel"] as? String
        if customer.email != nil {
            guard channel == "email", let subject = message["subject"] as? String,
                subject.hasPrefix("Your ride "), subject.hasSuffix(" is confirmed")
            else { return nil }
            return String(subject.dropFirst("Your ride ".count).dropLast(" is confirmed".count))
        }
        guard channel == "sms", let body = message["body"] as? String, body.hasPrefix("Concierge: ride ") else {
            return nil
        }
        let rest = body.dropFirst("Concierge: ride ".count)
        guard let space = rest.firstIndex(of: " "), rest[space...].hasPrefix(" confirmed") else { return nil }
        return String(rest[..<space])
    }
}

/// A small seeded generator (SplitMix64), so a drill's crash delays repeat with its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
