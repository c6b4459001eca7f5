import Histogram

/// One kind of timed operation: a single request, or a whole flow of them.
struct LoadScenario: Sendable {
    let name: String
    let summary: String
    /// Runs one operation on `connection` for worker `worker`; throws when the answer is wrong.
    let operation: @Sendable (_ connection: HTTPConnection, _ worker: Int, _ iteration: Int) async throws -> Void
}

/// What one scenario measured.
public struct LoadResult: Sendable, Codable {
    public let name: String
    public let summary: String
    public let operations: Int
    public let seconds: Double
    public let perSecond: Double
    public let latencyMilliseconds: LatencyFigures
    public let errors: Int
    public let firstError: String?
}

extension LoadResult {
    /// The same figures under another name (a scenario on the observed server of a comparison).
    func renamed(_ newName: String) -> LoadResult {
        LoadResult(
            name: newName, summary: summary, operations: operations, seconds: seconds, perSecond: perSecond,
            latencyMilliseconds: latencyMilliseconds, errors: errors, firstError: firstError)
    }

    /// The round with the median throughput, with the errors of every round.
    static func median(of rounds: [LoadResult]) -> LoadResult {
        let sorted = rounds.sorted { $0.perSecond < $1.perSecond }
        let middle = sorted[sorted.count / 2]
        return LoadResult(
            name: middle.name, summary: middle.summary, operations: middle.operations, seconds: middle.seconds,
            perSecond: middle.perSecond, latencyMilliseconds: middle.latencyMilliseconds,
            errors: rounds.reduce(0) { $0 + $1.errors },
            firstError: rounds.lazy.compactMap(\.firstError).first)
    }
}

/// Latency percentiles from an HdrHistogram, in milliseconds.
public struct LatencyFigures: Sendable, Codable {
    public let p50: Double
    public let p90: Double
    public let p99: Double
    public let max: Double

    init(_ histogram: Histogram<UInt64>) {
        func ms(_ microseconds: UInt64) -> Double { Double(microseconds) / 1000 }
        p50 = ms(histogram.valueAtPercentile(50))
        p90 = ms(histogram.valueAtPercentile(90))
        p99 = ms(histogram.valueAtPercentile(99))
        max = ms(histogram.max)
    }
}

/// A closed loop: `connections` workers, each on its own keep-alive connection, each starting
/// its next operation when the last one answered. Operations that start during the warm-up are
/// not counted.
struct LoadRun {
    let port: Int
    let connections: Int
    let warmup: Duration
    let duration: Duration

    fileprivate struct WorkerTally: Sendable {
        var histogram = Histogram<UInt64>(highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: .three)
        var operations = 0
        var errors = 0
        var firstError: String?
    }

    func run(_ scenario: LoadScenario) async -> LoadResult {
        let clock = ContinuousClock()
        let start = clock.now
        let measureFrom = start + warmup
        let end = measureFrom + duration
        let port = self.port
        let tallies = await withTaskGroup(of: WorkerTally.self) { group in
            for worker in 0..<connections {
                group.addTask {
                    var tally = WorkerTally()
                    var iteration = 0
                    while clock.now < end {
                        // A failed operation may leave the connection mid-response: start a new one.
                        do {
                            try await HTTPConnection.with(host: "127.0.0.1", port: port) { connection in
                                while clock.now < end {
                                    let began = clock.now
                                    iteration += 1
                                    do {
                                        try await scenario.operation(connection, worker, iteration)
                                    } catch {
                                        if began >= measureFrom { tally.record(error: error) }
                                        throw error
                                    }
                                    if began >= measureFrom { tally.record(clock.now - began) }
                                }
                            }
                        } catch {
                            // Could not connect (or the connection broke between operations):
                            // an error like any other, and no tight loop while it lasts.
                            if clock.now >= measureFrom { tally.record(error: error) }
                            try? await Task.sleep(for: .milliseconds(10))
                            continue
                        }
                    }
                    return tally
                }
            }
            return await group.reduce(into: [WorkerTally]()) { $0.append($1) }
        }
        var histogram = Histogram<UInt64>(highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: .three)
        for tally in tallies { histogram.add(tally.histogram) }
        let operations = tallies.reduce(0) { $0 + $1.operations }
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return LoadResult(
            name: scenario.name, summary: scenario.summary, operations: operations, seconds: seconds,
            perSecond: Double(operations) / seconds, latencyMilliseconds: LatencyFigures(histogram),
            errors: tallies.reduce(0) { $0 + $1.errors },
            firstError: tallies.lazy.compactMap(\.firstError).first)
    }
}

extension LoadRun.WorkerTally {
    mutating func record(_ latency: Duration) {
        let microseconds = latency.components.seconds * 1_000_000 + latency.components.attoseconds / 1_000_000_000_000
        _ = histogram.record(UInt64(max(1, microseconds)))
        operations += 1
    }

    mutating func record(error: any Error) {
        errors += 1
        if firstError == nil { firstError = String(describing: error) }
    }
}
