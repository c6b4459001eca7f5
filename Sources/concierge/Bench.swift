import ArgumentParser
import ConciergeBenchmarks
import Foundation

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Benchmarks. Build in release for figures that mean something: swift run -c release concierge bench places",
        subcommands: [Places.self])

    struct Places: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Autocomplete latency in process over the full embedded data set.")

        @Option(help: "Timed passes over the query set.") var passes = 3
        @Flag(help: "Print JSON instead of a table.") var json = false

        func run() async throws {
            let result = try AutocompleteBenchmark(passes: passes).run()
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(result), as: UTF8.self))
                return
            }
            let latency = result.latencyMicroseconds
            print("autocomplete: \(result.places) places, \(result.queries) queries × \(result.passes) passes")
            print("data load: \(String(format: "%.0f", result.loadMilliseconds)) ms")
            print(
                "latency (µs)   p50 \(f(latency.p50))   p90 \(f(latency.p90))   p99 \(f(latency.p99))   max \(f(latency.max))"
            )
            print("target: p99 ≤ 2000 µs — \(latency.p99 <= 2000 ? "met" : "MISSED")")
            print("slowest: " + result.slowest.joined(separator: "; "))
        }

        private func f(_ value: Double) -> String { String(format: "%.0f", value) }
    }
}
