import Foundation

/// What a person's past trips say about them: how much longer (or shorter) they take than the
/// planner expected, and how much that varies. Robust to outliers (a weighted median and the
/// median absolute deviation, not a mean) and recent trips weigh more (exponential decay by
/// recency rank).
public struct PersonalBias: Sendable, Equatable {
    /// Minutes to add to the expected travel time (negative for a fast driver).
    public let minutes: Double
    /// The spread of the person's errors, in minutes (a standard deviation).
    public let spreadMinutes: Double
    public let observations: Int

    /// A trip with no history: no bias, the prior spread.
    public static func none(travelMinutes: Double) -> PersonalBias {
        PersonalBias(minutes: 0, spreadMinutes: priorSpread(travelMinutes: travelMinutes), observations: 0)
    }

    /// Half-life of an observation's weight, in trips: the 8th most recent counts half.
    public static let halfLife = 8.0
    /// Only the most recent trips are read.
    public static let window = 60
    /// How many observations the prior spread is worth.
    public static let priorWeight = 3.0

    /// Without history, travel times vary by about 12 % (at least 2 minutes).
    public static func priorSpread(travelMinutes: Double) -> Double {
        max(2, travelMinutes * 0.12)
    }

    public init(minutes: Double, spreadMinutes: Double, observations: Int) {
        self.minutes = minutes
        self.spreadMinutes = spreadMinutes
        self.observations = observations
    }

    /// - Parameter errors: observed minus expected minutes, newest first.
    public static func learn(errors newestFirst: [Double], travelMinutes: Double) -> PersonalBias {
        let errors = Array(newestFirst.prefix(window))
        guard !errors.isEmpty else { return .none(travelMinutes: travelMinutes) }
        let weights = errors.indices.map { pow(0.5, Double($0) / halfLife) }
        let median = weightedMedian(errors, weights)
        let deviations = errors.map { abs($0 - median) }
        // 1.4826 × MAD estimates a standard deviation for normal errors, ignoring outliers.
        let mad = 1.4826 * weightedMedian(deviations, weights)
        let n = Double(errors.count)
        let prior = priorSpread(travelMinutes: travelMinutes)
        let spread = ((n * mad * mad + priorWeight * prior * prior) / (n + priorWeight)).squareRoot()
        // Shrink towards zero while there are few trips; never more than half the travel time.
        let shrunk = median * n / (n + 2)
        let limit = travelMinutes / 2
        return PersonalBias(
            minutes: min(max(shrunk, -limit), limit), spreadMinutes: max(spread, 1), observations: errors.count)
    }

    static func weightedMedian(_ values: [Double], _ weights: [Double]) -> Double {
        let pairs = zip(values, weights).sorted { $0.0 < $1.0 }
        let half = weights.reduce(0, +) / 2
        var running = 0.0
        for (value, weight) in pairs {
            running += weight
            if running >= half { return value }
        }
        return pairs.last?.0 ?? 0
    }
}

/// The normal distribution, for on-time probabilities and the margin a target needs.
public enum NormalDistribution {
    public static func cdf(_ z: Double) -> Double {
        0.5 * (1 + erf(z / 2.0.squareRoot()))
    }

    /// The z with `cdf(z) == p`, by bisection (p in 0…1, exclusive).
    public static func quantile(_ p: Double) -> Double {
        var low = -8.0
        var high = 8.0
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if cdf(mid) < p { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }
}
