import Foundation
import Testing

@testable import ConciergeBenchmarks

/// The `signup-flood` scenario of `concierge bench http` (issue 26 item 3): how its server is set
/// up and how the report judges it. The run itself is checked by running the benchmark.
@Suite struct SignUpFloodReportTests {
    @Test func theFloodsServerHashesAtTheDefaultCostAndTakesNetworksFromTheProxyHeader() {
        let settings = SignUpFloodScenarios.serverSettings(inherited: [:])
        // Present and nil: the benchmark's cost 4 is removed, so the server's default applies.
        #expect(settings.keys.contains("CONCIERGE_BCRYPT_COST"))
        #expect(settings["CONCIERGE_BCRYPT_COST"] == .some(nil))
        #expect(settings["CONCIERGE_TRUST_PROXY"] == "true")
        // The sign-up limits and the gate keep the server's defaults unless the run sets them.
        #expect(settings["CONCIERGE_SIGNUP_PER_NETWORK"] == .some(nil))
        let chosen = SignUpFloodScenarios.serverSettings(inherited: ["CONCIERGE_SIGNUP_PER_NETWORK": "1000000"])
        #expect(chosen["CONCIERGE_SIGNUP_PER_NETWORK"] == "1000000")
    }

    @Test func signInsWithinTwiceTheirQuietP99MeetTheTargetAndSlowerOnesMissIt() throws {
        #expect(try Self.report(quietP99: 160, floodedP99: 300, ratio: 1.9).floodTarget?.met == true)
        let missed = try Self.report(quietP99: 160, floodedP99: 1300, ratio: 8.1)
        #expect(missed.floodTarget?.met == false)
        #expect(missed.floodTarget?.measured.hasPrefix("8.10×") == true)
        #expect(missed.ratios["sign-in p99 flood/quiet"] == 8.1)
    }

    @Test func theFloodsRefusalsAreNotCountedAsErrors() throws {
        let report = try Self.report(quietP99: 160, floodedP99: 200, ratio: 1.25)
        #expect(report.targets.first { $0.name == "errors" }?.met == true)
        #expect(report.table.contains("900 × 429"))
        #expect(SignUpFloodScenarios.floodAnswers == [202, 429, 503])
    }

    static func report(quietP99: UInt64, floodedP99: UInt64, ratio: Double) throws -> HTTPBenchmarkReport {
        let flood = SignUpFloodSummary(
            signInWorkers: 1, floodConnections: 16, floodNetwork: SignUpFloodScenarios.floodNetwork,
            floodAnswers: ["202": 20, "429": 900], roundRatios: [ratio], starvedRounds: 0, p99Ratio: ratio,
            serverSettings: [:])
        return HTTPBenchmarkReport(
            engine: "sqlite", connections: 1, durationSeconds: 5, rounds: 1, cores: 2, startToReadyMilliseconds: 100,
            peakResidentMegabytes: nil, rateLimits: [:],
            results: [
                try result(SignUpFloodScenarios.quietName, p99Milliseconds: quietP99),
                try result(SignUpFloodScenarios.floodedName, p99Milliseconds: floodedP99),
                try result(SignUpFloodScenarios.floodName, p99Milliseconds: 5),
            ],
            signUpFlood: flood)
    }

    /// A row as a run would report it (decoded: its latencies come from a histogram otherwise).
    static func result(_ name: String, p99Milliseconds: UInt64) throws -> LoadResult {
        let json = """
            {"name": "\(name)", "summary": "\(name)", "operations": 25, "seconds": 5, "perSecond": 5, "errors": 0,
             "latencyMilliseconds": {"p50": 1, "p90": 1, "p99": \(p99Milliseconds), "max": \(p99Milliseconds)}}
            """
        return try JSONDecoder().decode(LoadResult.self, from: Data(json.utf8))
    }
}

extension HTTPBenchmarkReport {
    fileprivate var floodTarget: Target? { targets.first { $0.name == "sign-in p99 under a sign-up flood" } }
}
