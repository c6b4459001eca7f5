import ArgumentParser
import ConciergeBenchmarks
import Foundation

extension Bench {
    /// Load on a server already running, e.g. `scripts/cluster`'s front; see `RunningServerLoad`.
    struct Load: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Puts load on a running server (loopback) for a while and counts failed operations.",
            discussion: """
                The server must be in dev mode (sign-in codes from /dev/outbox, sandbox payments) with the \
                benchmark's limits lifted, as scripts/cluster starts it. Exits 1 when an operation failed.
                """)

        @Option(help: "The server's URL, on this machine, e.g. http://127.0.0.1:8800.") var url: String
        @Option(help: "Seconds of load.") var duration = 30
        @Option(help: "Keep-alive connections per scenario, each a closed loop.") var connections = 8
        @Option(
            help: "Comma-separated scenarios, run at once: \(RunningServerLoad.scenarioNames.joined(separator: ",")).")
        var scenarios = "pricing,book"
        @Flag(help: "Print JSON instead of a table.") var json = false

        func run() async throws {
            guard let parsed = URL(string: url), let port = parsed.port,
                ["127.0.0.1", "localhost"].contains(parsed.host ?? "")
            else {
                throw ValidationError("--url must be http://127.0.0.1:PORT (the load generator speaks to loopback)")
            }
            var load = RunningServerLoad(port: port)
            load.connections = connections
            load.duration = .seconds(duration)
            load.scenarios = scenarios.split(separator: ",").map(String.init)
            let report = try await load.run()
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                for result in report.results {
                    print(
                        "\(result.name): \(result.operations) ok, \(result.errors) failed"
                            + (result.firstError.map { " (first: \($0))" } ?? ""))
                }
                print("failed operations: \(report.failed) of \(report.failed + report.succeeded)")
            }
            if report.failed > 0 { throw ExitCode.failure }
        }
    }
}
