/// Percentiles of a set of latencies, in microseconds.
public struct LatencySummary: Sendable, Codable, Equatable {
    public let count: Int
    public let p50: Double
    public let p90: Double
    public let p99: Double
    public let max: Double

    /// Nearest-rank percentiles over `samples` (microseconds).
    public init(samples: [Double]) {
        let sorted = samples.sorted()
        func rank(_ percentile: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let index = Int((percentile / 100 * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))]
        }
        count = sorted.count
        p50 = rank(50)
        p90 = rank(90)
        p99 = rank(99)
        max = sorted.last ?? 0
    }
}

extension Duration {
    var microseconds: Double {
        Double(components.seconds) * 1_000_000 + Double(components.attoseconds) / 1_000_000_000_000
    }
}
