import Foundation

/// `concierge bench http`: starts a release server of its own, drives it over loopback with a
/// fixed number of keep-alive connections for a fixed time per scenario, and reports throughput,
/// HdrHistogram latencies, errors, the server's peak memory and its start-up time.
public struct HTTPBenchmark: Sendable {
    public var connections = 64
    public var duration: Duration = .seconds(5)
    /// Rounds over all scenarios; each scenario reports its median round. Rounds interleave, so a
    /// slow moment of the machine does not land on one scenario only.
    public var rounds = 5
    public var warmup: Duration = .seconds(2)
    /// PostgreSQL to run on; SQLite in a temporary directory when nil.
    public var databaseURL: String?
    public var scenarios = LoadScenarios.names
    public var serverLogLevel = "info"
    /// The server binary; this executable (`concierge`) by default.
    public var executable = ServerProcess.ownExecutable
    /// Runs the server under a profiler: `["/usr/bin/valgrind", "--tool=callgrind"]`.
    public var serverWrapper: [String] = []
    /// Metrics and tracing off, on, or both compared in one sitting.
    public var observability = BenchmarkObservability.off
    /// Another build's server (the build before a change), measured beside this one in the same
    /// rounds, each with a database and fixture of its own: its results are named
    /// "<scenario> before", and the report's ratio "<scenario>/before" is the median of the
    /// rounds' own ratios, so a slow moment of the machine falls on both builds alike.
    public var beforeExecutable: String?

    /// The suffix of the build before's scenario names in the report ("health before").
    static let beforeSuffix = " before"

    public static let scenarioNames = LoadScenarios.names

    /// Sign-in limits are per client address, and every benchmark request comes from 127.0.0.1:
    /// these are raised so the figures measure the server, not the limiter. Each sign-in in the
    /// benchmark uses a phone number of its own, so the per-phone limits stay at their defaults.
    /// Each benchmark customer books thousands of rides, seats and rooms, so the per-customer
    /// order limits of every vertical are off (0, `docs/limits.md`), and so are the per-network
    /// limits on orders and on places and pricing; the stays customers sign in by phone and have
    /// no email, so pay-at-hotel does not ask for a verified one. The report prints all.
    public static let rateLimits = [
        "CONCIERGE_OTP_SENDS_PER_IP_HOUR": "100000000",
        "CONCIERGE_OTP_VERIFIES_PER_IP_HOUR": "100000000",
        "CONCIERGE_OTP_SENDS_PER_HOUR": "100000000",
        "CONCIERGE_MAX_UNPAID_BOOKINGS": "0",
        "CONCIERGE_MAX_BOOKINGS_PER_HOUR": "0",
        "CONCIERGE_PUBLIC_READS_PER_MINUTE": "0",
        "CONCIERGE_ORDERS_PER_NETWORK_PER_MINUTE": "0",
        "CONCIERGE_EVENTS_MAX_UNPAID_ORDERS": "0",
        "CONCIERGE_EVENTS_MAX_ORDERS_PER_HOUR": "0",
        "CONCIERGE_EVENTS_MAX_SEATS_PER_SHOW": "0",
        "CONCIERGE_STAYS_MAX_UNPAID_ORDERS": "0",
        "CONCIERGE_STAYS_MAX_ORDERS_PER_HOUR": "0",
        "CONCIERGE_STAYS_MAX_ROOMS_PER_NIGHT": "0",
        "CONCIERGE_STAYS_PAY_AT_HOTEL_NEEDS_VERIFIED_EMAIL": "false",
        // The events buyers (one per connection, 64 by default) sign up and sign in from
        // loopback before the clock starts; the signup-flood scenario puts the sign-up limits
        // back to the server's defaults.
        "CONCIERGE_SIGNUP_PER_NETWORK": "100000000",
        "CONCIERGE_SIGNUP_PER_HOUR": "100000000",
        "CONCIERGE_SIGNIN_PER_NETWORK": "100000000",
    ]

    public init() {}

    public func run(progress: @Sendable (String) -> Void = { _ in }) async throws -> HTTPBenchmarkReport {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "concierge-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var keepLog = false
        defer { if !keepLog { try? FileManager.default.removeItem(at: directory) } }
        if observability == .compare || beforeExecutable != nil, databaseURL != nil {
            // Both servers would sign the same benchmark customers in on one database.
            throw LoadError("--observability compare and --before run on SQLite (two servers, a database each)")
        }
        if observability == .compare, beforeExecutable != nil {
            throw LoadError("--observability compare and --before cannot be combined")
        }
        let sink = observability == .off ? nil : try await OTLPSink.start()
        do {
            let report = try await measure(in: directory, sink: sink, keepLog: &keepLog, progress: progress)
            await sink?.stop()
            return report
        } catch {
            await sink?.stop()
            throw error
        }
    }

    /// One server per variant (plain, observed, or both), each with its own database and fixture;
    /// every round runs each scenario on each server in turn.
    private func measure(
        in directory: URL, sink: OTLPSink?, keepLog: inout Bool, progress: @Sendable (String) -> Void
    ) async throws -> HTTPBenchmarkReport {
        var variants: [(suffix: String, observed: Bool, executable: String)] = []
        switch observability {
        case .off: variants = [("", false, executable)]
        case .on: variants = [("", true, executable)]
        case .compare: variants = [("", false, executable), (BenchmarkObservability.observedSuffix, true, executable)]
        }
        if let beforeExecutable { variants.append((Self.beforeSuffix, observability == .on, beforeExecutable)) }
        var servers: [(suffix: String, server: ServerProcess, fixture: BenchmarkFixture)] = []
        defer { for entry in servers { entry.server.stop() } }
        for (index, variant) in variants.enumerated() {
            let server = try await startServer(
                in: directory, name: "server\(index)", executable: variant.executable,
                collector: variant.observed ? sink?.endpoint : nil)
            var fixture: BenchmarkFixture
            do {
                fixture = try await BenchmarkFixture.prepare(port: server.port, customers: connections)
                if scenarios.contains(where: EventsLoadScenarios.names.contains) {
                    fixture.events = try await EventsLoadFixture.prepare(port: server.port, buyers: connections)
                    progress(
                        "events: a \(EventsLoadFixture.seatCount)-seat hall, its shows and \(connections) verified buyers"
                    )
                }
            } catch {
                // Not in `servers` yet: a fixture that fails must not leave its server running.
                server.stop()
                throw error
            }
            servers.append((variant.suffix, server, fixture))
            progress(
                "server\(variant.suffix) ready in \(Self.milliseconds(server.startToReady)) ms on port \(server.port)")
        }
        let chosen = try scenarios.map { name in
            guard LoadScenarios.names.contains(name) else {
                throw LoadError("unknown scenario '\(name)'; known: \(LoadScenarios.names.joined(separator: ", "))")
            }
            return name
        }
        var runs: [String: [LoadResult]] = [:]
        // Reads first, then writes, each in interleaved rounds: the database's own work after a
        // burst of writes (PostgreSQL's autovacuum and checkpoints share these two cores) must
        // not land on the read scenarios. The sign-up flood comes last, on a server of its own.
        let writes = Set(["book", "flow"] + StaysLoadScenarios.writes + EventsLoadScenarios.writes)
        let shared = chosen.filter { $0 != SignUpFloodScenarios.name }
        for phase in [shared.filter { !writes.contains($0) }, shared.filter { writes.contains($0) }] {
            for round in 1...max(1, rounds) {
                for name in phase {
                    for entry in servers {
                        guard let scenario = LoadScenarios.named(name, fixture: entry.fixture) else { continue }
                        progress(
                            "round \(round)/\(rounds) \(name)\(entry.suffix): \(connections) connections, "
                                + "\(Self.seconds(warmup)) s warm-up + \(Self.seconds(duration)) s")
                        let load = LoadRun(
                            port: entry.server.port, connections: connections, warmup: warmup, duration: duration)
                        let result = await load.run(scenario)
                        runs[name + entry.suffix, default: []].append(result.renamed(name + entry.suffix))
                        if let status = entry.server.exitStatus {
                            keepLog = true
                            throw LoadError(
                                "the server exited (status \(status)) during \(name); its log: \(entry.server.logPath)")
                        }
                    }
                }
            }
        }
        let names = shared.flatMap { name in servers.map { name + $0.suffix } }
        var results = names.compactMap { runs[$0].map(LoadResult.median(of:)) }
        var signUpFlood: SignUpFloodSummary?
        if chosen.contains(SignUpFloodScenarios.name) {
            let flood = try await runSignUpFlood(in: directory, keepLog: &keepLog, progress: progress)
            results += flood.results
            signUpFlood = flood.summary
        }
        let first = servers[0]
        var seatSales: SeatSalesAudit?
        if scenarios.contains("seats"), let events = first.fixture.events {
            seatSales = try await SeatSalesAudit.run(port: first.server.port, fixture: events)
        }
        var observed: ObservabilitySummary?
        if let sink, let last = servers.last {
            observed = await ObservabilitySummary.collect(sink: sink, port: last.server.port)
        }
        let peak = first.server.peakResidentBytes
        for entry in servers { entry.server.stop() }
        return HTTPBenchmarkReport(
            engine: databaseURL == nil ? "sqlite" : "postgresql", connections: connections,
            durationSeconds: Self.seconds(duration), rounds: max(1, rounds),
            cores: ProcessInfo.processInfo.activeProcessorCount,
            startToReadyMilliseconds: Self.milliseconds(first.server.startToReady),
            peakResidentMegabytes: peak.map { Double($0) / 1_048_576 }, rateLimits: Self.rateLimits,
            results: results, seatSales: seatSales, signUpFlood: signUpFlood, observability: observability,
            observed: observed,
            againstBefore: beforeExecutable == nil ? [:] : Self.pairedRatios(runs, scenarios: chosen))
    }

    /// The `signup-flood` scenario on a server of this build started for it (real bcrypt cost,
    /// client networks from `X-Forwarded-For`), on the run's database; stopped afterwards.
    private func runSignUpFlood(in directory: URL, keepLog: inout Bool, progress: @Sendable (String) -> Void)
        async throws -> (results: [LoadResult], summary: SignUpFloodSummary)
    {
        let server = try await startServer(
            in: directory, name: "server-signup-flood", executable: executable, collector: nil,
            settings: SignUpFloodScenarios.serverSettings())
        defer { server.stop() }
        let fixture = try await SignUpFloodScenarios.Fixture.prepare(
            port: server.port, workers: SignUpFloodRun.signInWorkers())
        progress(
            "\(SignUpFloodScenarios.name): a server of its own (default bcrypt cost) ready on port \(server.port), "
                + "\(fixture.logins.count) sign-in account(s) on networks of their own")
        let outcome = await SignUpFloodRun(
            port: server.port, fixture: fixture, rounds: rounds, warmup: warmup, duration: duration
        ).run(progress: progress)
        if let status = server.exitStatus {
            keepLog = true
            throw LoadError("the server exited (status \(status)) during the sign-up flood; its log: \(server.logPath)")
        }
        return outcome
    }

    /// Each scenario's rounds, as this build's rate over the build before's in the same round.
    static func pairedRatios(_ runs: [String: [LoadResult]], scenarios: [String]) -> [String: [Double]] {
        var ratios: [String: [Double]] = [:]
        for name in scenarios {
            guard let after = runs[name], let before = runs[name + beforeSuffix] else { continue }
            let rounds = zip(after, before).filter { $0.1.perSecond > 0 }.map { $0.0.perSecond / $0.1.perSecond }
            if !rounds.isEmpty { ratios["\(name)/before"] = rounds }
        }
        return ratios
    }

    /// A release server of its own on a free port, with the benchmark's settings; `collector`
    /// turns metrics and tracing on; `settings` changes some (nil removes one: the server's
    /// default then).
    private func startServer(
        in directory: URL, name: String, executable: String, collector: String?, settings: [String: String?] = [:]
    ) async throws -> ServerProcess {
        var environment = Self.rateLimits.merging(try StaysLoadScenarios.serverEnvironment(in: directory)) { $1 }
        environment["CONCIERGE_MODE"] = "dev"
        environment["CONCIERGE_PAYMENT_PROVIDER"] = "sandbox"
        environment["CONCIERGE_LOG_LEVEL"] = serverLogLevel
        environment["CONCIERGE_ADMIN_TOKEN"] = EventsLoadFixture.adminToken
        // The events buyers sign up with a password before the clock starts; no scenario checks
        // one, so the cheapest bcrypt keeps the set-up (and a profile of the run) free of it.
        environment["CONCIERGE_BCRYPT_COST"] = "4"
        if let collector {
            environment.merge(BenchmarkObservability.serverEnvironment(collector: collector)) { $1 }
        }
        if let databaseURL {
            environment["DATABASE_URL"] = databaseURL
        } else {
            environment["CONCIERGE_SQLITE_PATH"] = directory.appendingPathComponent("\(name).sqlite").path
            // The one server setting a run may choose from outside: how commits reach the disk.
            if let synchronous = ProcessInfo.processInfo.environment["CONCIERGE_SQLITE_SYNCHRONOUS"] {
                environment["CONCIERGE_SQLITE_SYNCHRONOUS"] = synchronous
            }
        }
        for (variable, value) in settings { environment[variable] = value }
        let server = try ServerProcess(
            executable: executable, port: try await ServerProcess.freePort(), environment: environment,
            logPath: directory.appendingPathComponent("\(name).log").path, wrapper: serverWrapper)
        try await server.start(timeout: serverWrapper.isEmpty ? .seconds(30) : .seconds(600))
        return server
    }

    static func milliseconds(_ duration: Duration) -> Double {
        (seconds(duration) * 1000).rounded()
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
