import Foundation

/// What the `signup-flood` scenario found, beside its three rows in the report.
public struct SignUpFloodSummary: Sendable, Codable {
    public let signInWorkers: Int
    public let floodConnections: Int
    public let floodNetwork: String
    /// The flood's answers by status, warm-ups included: "202", "429", "503".
    public let floodAnswers: [String: Int]
    /// Each round's sign-in p99 under the flood over its p99 without it. A round in which no
    /// sign-in under the flood finished within the measured window counts the window itself
    /// as its p99 (a lower bound), so a starved round cannot pass for a fast one.
    public let roundRatios: [Double]
    /// Rounds in which no sign-in under the flood finished within the measured window.
    public let starvedRounds: Int
    /// The median of `roundRatios`: quiet and flooded sign-ins of one round saw the same
    /// moment of the machine, so their ratio holds where absolute figures swing.
    public let p99Ratio: Double?
    /// The server's settings that differ from the other scenarios' (and those taken from the
    /// run's environment).
    public let serverSettings: [String: String]
}

/// Runs `signup-flood` on a server of its own: each round measures the sign-ins alone, then the
/// same sign-ins while the flood runs beside them, for the same warm-up and duration.
struct SignUpFloodRun {
    let port: Int
    let fixture: SignUpFloodScenarios.Fixture
    let rounds: Int
    let warmup: Duration
    let duration: Duration

    /// One sign-in worker per two hashing slots (N = cores by default): people signing in now and
    /// then, not a queue of their own, so the quiet p99 is about one hash and its requests.
    static func signInWorkers(cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        max(1, cores / 2)
    }

    func run(progress: @Sendable (String) -> Void) async -> (results: [LoadResult], summary: SignUpFloodSummary) {
        let workers = fixture.logins.count
        let answers = StatusTally()
        let quiet = SignUpFloodScenarios.signIns(fixture, name: SignUpFloodScenarios.quietName)
        let flooded = SignUpFloodScenarios.signIns(fixture, name: SignUpFloodScenarios.floodedName)
        let flood = SignUpFloodScenarios.flood(fixture, answers: answers)
        let signIns = LoadRun(port: port, connections: workers, warmup: warmup, duration: duration)
        let floodRun = LoadRun(
            port: port, connections: SignUpFloodScenarios.floodConnections, warmup: warmup, duration: duration)
        var runs: [String: [LoadResult]] = [:]
        var ratios: [Double] = []
        var starved = 0
        for round in 1...max(1, rounds) {
            progress("round \(round)/\(rounds) \(SignUpFloodScenarios.name): \(workers) sign-in worker(s) alone")
            let alone = await signIns.run(quiet)
            progress(
                "round \(round)/\(rounds) \(SignUpFloodScenarios.name): the same sign-ins beside "
                    + "\(SignUpFloodScenarios.floodConnections) sign-ups from \(SignUpFloodScenarios.floodNetwork)")
            async let floodResult = floodRun.run(flood)
            let beside = await signIns.run(flooded)
            let floodOutcome = await floodResult
            runs[quiet.name, default: []].append(alone)
            runs[flooded.name, default: []].append(beside)
            runs[flood.name, default: []].append(floodOutcome)
            let quietP99 = alone.latencyMilliseconds.p99
            guard quietP99 > 0 else { continue }
            if beside.operations > 0 {
                ratios.append(beside.latencyMilliseconds.p99 / quietP99)
            } else {
                starved += 1
                ratios.append(HTTPBenchmark.seconds(duration) * 1000 / quietP99)
            }
        }
        let results = [quiet.name, flooded.name, flood.name].compactMap { runs[$0].map(LoadResult.median(of:)) }
        let summary = SignUpFloodSummary(
            signInWorkers: workers, floodConnections: SignUpFloodScenarios.floodConnections,
            floodNetwork: SignUpFloodScenarios.floodNetwork,
            floodAnswers: Dictionary(uniqueKeysWithValues: answers.snapshot.map { (String($0.key), $0.value) }),
            roundRatios: ratios, starvedRounds: starved,
            p99Ratio: ratios.isEmpty ? nil : ratios.sorted()[ratios.count / 2],
            serverSettings: SignUpFloodScenarios.serverSettings().reduce(into: [:]) {
                $0[$1.key] = $1.value ?? "default"
            })
        return (results, summary)
    }
}
