import Foundation

/// One run of `concierge bench http`, with the issue's targets judged against it.
public struct HTTPBenchmarkReport: Sendable, Codable {
    public let engine: String
    public let connections: Int
    public let durationSeconds: Double
    public let rounds: Int
    public let cores: Int
    public let startToReadyMilliseconds: Double
    public let peakResidentMegabytes: Double?
    public let rateLimits: [String: String]
    public let results: [LoadResult]
    /// The seats scenario's end check: seats sold twice, and the orders against the seat maps.
    public let seatSales: SeatSalesAudit?
    /// The sign-up flood's answers and its sign-ins' p99 ratio (issue 26 item 3).
    public let signUpFlood: SignUpFloodSummary?
    /// Metrics and tracing: off, on, or compared (each scenario also run on an observed server).
    public let observability: BenchmarkObservability
    /// What the observed server exported and kept.
    public let observed: ObservabilitySummary?
    public let ratios: [String: Double]
    /// With `--before`: each "<scenario>/before" ratio round by round (its entry in `ratios` is
    /// their median).
    public let ratioRounds: [String: [Double]]
    public let targets: [Target]

    public struct Target: Sendable, Codable {
        public let name: String
        public let goal: String
        public let measured: String
        public let met: Bool
    }

    init(
        engine: String, connections: Int, durationSeconds: Double, rounds: Int, cores: Int,
        startToReadyMilliseconds: Double,
        peakResidentMegabytes: Double?, rateLimits: [String: String], results: [LoadResult],
        seatSales: SeatSalesAudit? = nil, signUpFlood: SignUpFloodSummary? = nil,
        observability: BenchmarkObservability = .off,
        observed: ObservabilitySummary? = nil, againstBefore: [String: [Double]] = [:]
    ) {
        self.engine = engine
        self.connections = connections
        self.durationSeconds = durationSeconds
        self.rounds = rounds
        self.cores = cores
        self.startToReadyMilliseconds = startToReadyMilliseconds
        self.peakResidentMegabytes = peakResidentMegabytes
        self.rateLimits = rateLimits
        self.results = results
        self.seatSales = seatSales
        self.signUpFlood = signUpFlood
        self.observability = observability
        self.observed = observed
        let byName = Dictionary(results.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var ratios: [String: Double] = [:]
        if let health = byName["health"], health.perSecond > 0 {
            for name in ["pricing", "book", "seats", "seat-map"] {
                if let other = byName[name] { ratios["\(name)/health"] = other.perSecond / health.perSecond }
            }
        }
        let suffix = BenchmarkObservability.observedSuffix
        for name in ["health", "pricing"] {
            if let plain = byName[name], let observed = byName[name + suffix], plain.perSecond > 0 {
                ratios["\(name)\(suffix)/\(name)"] = observed.perSecond / plain.perSecond
            }
        }
        if let ratio = signUpFlood?.p99Ratio { ratios[Self.signUpFloodRatio] = ratio }
        for (name, rounds) in againstBefore { ratios[name] = rounds.sorted()[rounds.count / 2] }
        self.ratioRounds = againstBefore
        self.ratios = ratios

        var targets: [Target] = []
        if let ratio = ratios["pricing/health"] {
            targets.append(.init(name: "pricing/health", goal: "≥ 0.50", measured: Self.f2(ratio), met: ratio >= 0.5))
        }
        // The booking targets are set for SQLite; on PostgreSQL every commit also waits for the
        // server's fsync, and the figures are reported without a verdict.
        let bookTargets = engine == "sqlite"
        if bookTargets, let ratio = ratios["book/health"] {
            targets.append(.init(name: "book/health", goal: "≥ 0.10", measured: Self.f2(ratio), met: ratio >= 0.1))
        }
        if bookTargets, let book = byName["book"] {
            let p99 = book.latencyMilliseconds.p99
            targets.append(.init(name: "book p99", goal: "≤ 50 ms", measured: "\(Self.f1(p99)) ms", met: p99 <= 50))
        }
        for name in ["health", "pricing"] {
            guard let ratio = ratios["\(name)\(suffix)/\(name)"] else { continue }
            let overhead = (1 - ratio) * 100
            targets.append(
                .init(
                    name: "\(name) overhead", goal: "≤ 5 % (metrics + traces)", measured: "\(Self.f1(overhead)) %",
                    met: overhead <= 5))
        }
        targets += Self.eventsTargets(byName, seatSales: seatSales, sqlite: engine == "sqlite")
        targets += Self.signUpFloodTargets(byName, ratio: ratios[Self.signUpFloodRatio])
        if let peakResidentMegabytes {
            targets.append(
                .init(
                    name: "peak RSS", goal: "≤ 150 MB", measured: "\(Self.f1(peakResidentMegabytes)) MB",
                    met: peakResidentMegabytes <= 150))
        }
        targets.append(
            .init(
                name: "start → ready", goal: "≤ 1000 ms", measured: "\(Self.f1(startToReadyMilliseconds)) ms",
                met: startToReadyMilliseconds <= 1000))
        let errors = results.reduce(0) { $0 + $1.errors }
        targets.append(.init(name: "errors", goal: "0", measured: String(errors), met: errors == 0))
        self.targets = targets
    }

    /// The table `concierge bench http` prints.
    public var table: String {
        var lines: [String] = []
        lines.append(
            "engine \(engine) · \(cores) cores · \(connections) connections · \(Self.f1(durationSeconds)) s per scenario"
                + " · median of \(rounds) rounds (errors: all rounds)"
        )
        lines.append(
            "rate limits: "
                + rateLimits.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                + " (per-phone limits at their defaults; every sign-in uses a new phone)")
        lines.append("")
        let header = ["scenario", "ops/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "ops", "errors"]
        var rows = [header]
        for result in results {
            let latency = result.latencyMilliseconds
            rows.append([
                result.name, Self.f0(result.perSecond), Self.f2(latency.p50), Self.f2(latency.p90),
                Self.f2(latency.p99), Self.f2(latency.max), String(result.operations), String(result.errors),
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            lines.append(
                row.enumerated().map { column, cell in
                    column == 0
                        ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                        : String(repeating: " ", count: widths[column] - cell.count) + cell
                }.joined(separator: "  "))
        }
        if let seatSales {
            lines.append(
                "seats audit: \(seatSales.shows) shows, \(seatSales.paidOrders) paid orders holding "
                    + "\(seatSales.seatsOfPaidOrders) seats, \(seatSales.soldOnSeatMaps) sold on the seat maps, "
                    + "\(seatSales.seatsSoldTwice) sold twice; \(seatSales.namedSeatConflicts) named-seat conflicts, "
                    + "\(seatSales.soldOutAnswers) sold-out answers, \(seatSales.bestAvailableLostRaces) best-available "
                    + "409s with seats left")
            for mismatch in seatSales.mismatches.prefix(10) { lines.append("  mismatch: \(mismatch)") }
        }
        if let signUpFlood { lines.append(Self.signUpFloodLine(signUpFlood)) }
        if let observed {
            lines.append(
                "observed server (sampler \(observed.sampler)): \(observed.traceExports) trace exports (\(observed.traceBytes) bytes) reached the "
                    + "stand-in collector; /metrics "
                    + (observed.metricsSamples.map { "held \($0) samples" } ?? "did not answer 200"))
        }
        for result in results where result.firstError != nil {
            lines.append("first error in \(result.name): \(result.firstError ?? "")")
        }
        let againstBefore = ratios.filter { $0.key.hasSuffix("/before") }.sorted { $0.key < $1.key }
        if !againstBefore.isEmpty {
            lines.append(
                "against the build before (median of the rounds' ratios): "
                    + againstBefore.map { name, median in
                        let rounds = ratioRounds[name] ?? []
                        return
                            "\(name) \(Self.f2(median)) (\(Self.f2(rounds.min() ?? median))–\(Self.f2(rounds.max() ?? median)))"
                    }.joined(separator: " · "))
        }
        lines.append("")
        // Padded, never cut: a long target name must still say which target it is.
        let nameWidth = max(15, targets.map(\.name.count).max() ?? 0)
        for target in targets {
            lines.append(
                "\(target.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)) \(target.measured) (target \(target.goal)) \(target.met ? "met" : "MISSED")"
            )
        }
        return lines.joined(separator: "\n")
    }

    static func f0(_ value: Double) -> String { String(format: "%.0f", value) }
    static func f1(_ value: Double) -> String { String(format: "%.1f", value) }
    static func f2(_ value: Double) -> String { String(format: "%.2f", value) }
}
