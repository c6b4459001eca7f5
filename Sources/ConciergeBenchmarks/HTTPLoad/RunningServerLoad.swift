import Foundation

/// `concierge bench load`: the `bench http` scenarios against a server that is already running
/// (an HAProxy front of `scripts/cluster`, say) for a set time, all scenarios at once, counting
/// what failed. The upgrade drill reads its failures while instances are replaced under it.
///
/// The server must run with the benchmark's limits lifted (`HTTPBenchmark.rateLimits`; the
/// cluster script sets them): every request comes from one address.
public struct RunningServerLoad: Sendable {
    public static let scenarioNames = ["health", "places", "pricing", "book", "flow"]

    public var port: Int
    public var connections = 8
    public var duration: Duration = .seconds(30)
    public var scenarios = ["pricing", "book"]

    public init(port: Int) {
        self.port = port
    }

    public struct Report: Sendable, Codable {
        public let connectionsPerScenario: Int
        public let seconds: Double
        public let results: [LoadResult]
        /// Operations that failed, every scenario together (a `flow` is several requests).
        public let failed: Int
        public let succeeded: Int
    }

    public func run() async throws -> Report {
        for name in scenarios where !Self.scenarioNames.contains(name) {
            throw LoadError("unknown scenario '\(name)'; known: \(Self.scenarioNames.joined(separator: ", "))")
        }
        let fixture = try await BenchmarkFixture.prepare(port: port, customers: connections)
        let load = LoadRun(port: port, connections: connections, warmup: .zero, duration: duration)
        let results = await withTaskGroup(of: LoadResult?.self) { group in
            for name in scenarios {
                group.addTask {
                    guard let scenario = LoadScenarios.named(name, fixture: fixture) else { return nil }
                    return await load.run(scenario)
                }
            }
            return await group.reduce(into: [LoadResult]()) { if let result = $1 { $0.append(result) } }
        }.sorted { $0.name < $1.name }
        let seconds = Double(duration.components.seconds)
        return Report(
            connectionsPerScenario: connections, seconds: seconds, results: results,
            failed: results.reduce(0) { $0 + $1.errors }, succeeded: results.reduce(0) { $0 + $1.operations })
    }
}
