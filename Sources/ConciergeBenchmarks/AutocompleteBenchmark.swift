import ConciergeCore
@_spi(Benchmarks) import ConciergeProviders
import Foundation

/// Autocomplete latency in process over the full embedded data set: every 25th place's name
/// typed as prefixes of growing length, in full, with one typo, and airports by IATA code;
/// every other query with a position near Zurich. The same queries in the same order every run.
public struct AutocompleteBenchmark: Sendable {
    public struct Result: Sendable, Codable {
        public let places: Int
        public let queries: Int
        public let passes: Int
        public let loadMilliseconds: Double
        public let latencyMicroseconds: LatencySummary
        /// The slowest queries of the last pass, slowest first: where to look when p99 moves.
        public let slowest: [String]
    }

    public let passes: Int

    public init(passes: Int = 3) {
        self.passes = passes
    }

    public func run() throws -> Result {
        let loadStart = ContinuousClock.now
        let gazetteer = try Gazetteer.bundled()
        let loadTime = loadStart.duration(to: .now)
        let queries = Self.queries(from: gazetteer.benchmarkNames)
        let zurich = Coordinate(latitude: 47.37, longitude: 8.54)

        // One untimed pass warms caches and the allocator.
        for (index, query) in queries.enumerated() {
            _ = gazetteer.suggestions(for: query, near: index.isMultiple(of: 2) ? zurich : nil)
        }
        var samples: [Double] = []
        samples.reserveCapacity(queries.count * passes)
        var found = 0
        var lastPass: [(query: String, micros: Double)] = []
        for pass in 0..<passes {
            for (index, query) in queries.enumerated() {
                let near = index.isMultiple(of: 2) ? zurich : nil
                let start = ContinuousClock.now
                let result = gazetteer.suggestions(for: query, near: near)
                let micros = start.duration(to: .now).microseconds
                samples.append(micros)
                found &+= result.count
                if pass == passes - 1 { lastPass.append(("\(query)\(near == nil ? "" : " (near)")", micros)) }
            }
        }
        precondition(found > 0, "the benchmark found nothing; the data did not load")
        return Result(
            places: gazetteer.count, queries: queries.count, passes: passes,
            loadMilliseconds: loadTime.microseconds / 1000, latencyMicroseconds: LatencySummary(samples: samples),
            slowest: lastPass.sorted { $0.micros > $1.micros }.prefix(8).map { "\($0.query): \(Int($0.micros)) µs" })
    }

    static func queries(from names: [(name: String, code: String?)]) -> [String] {
        var queries: [String] = []
        for (index, entry) in names.enumerated() where index.isMultiple(of: 25) {
            let name = entry.name
            for length in [1, 2, 3, 4, 6, 8] where length < name.count {
                queries.append(String(name.prefix(length)))
            }
            queries.append(name)
            if name.count >= 6 {
                var characters = Array(name)
                characters.swapAt(2, 3)
                queries.append(String(characters))
            }
            if let code = entry.code { queries.append(code) }
        }
        return queries
    }
}
