import ArgumentParser
import ConciergeBenchmarks
import Foundation

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Benchmarks. Build in release for figures that mean something: swift run -c release concierge bench places",
        subcommands: [Places.self, HTTP.self, Load.self, CommuteBench.self])

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

    struct HTTP: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "http",
            abstract:
                "Starts a server of its own and measures it over loopback, scenario by scenario (see --scenarios).",
            discussion: """
                SQLite in a temporary directory unless --database-url (or DATABASE_URL) names a PostgreSQL                 database. Build in release: swift run -c release concierge bench http
                """)

        @Option(help: "Keep-alive connections, each a closed loop.") var connections = 64
        @Option(help: "Measured seconds per scenario and round.") var duration = 5
        @Option(help: "Rounds over all scenarios; each scenario reports its median round.") var rounds = 5
        @Option(help: "Unmeasured warm-up seconds before each scenario.") var warmup = 2
        @Option(help: "PostgreSQL URL to run on (default: $DATABASE_URL, else SQLite in a temp dir).")
        var databaseURL = ProcessInfo.processInfo.environment["DATABASE_URL"] ?? ""
        @Option(
            help: "Comma-separated scenarios: \(HTTPBenchmark.scenarioNames.joined(separator: ",")).")
        var scenarios = HTTPBenchmark.scenarioNames.joined(separator: ",")
        @Option(help: "The server's log level (it logs every request at info).") var serverLogLevel = "info"
        @Option(
            help: ArgumentHelp(
                "Run the server under a profiler, e.g. 'valgrind --tool=callgrind' (a full path or a program on PATH).",
                valueName: "command"))
        var serverWrapper: String?
        @Option(
            help: ArgumentHelp(
                "Metrics and tracing on the server: off, on, or compare (a plain and an observed server in alternating rounds; SQLite).",
                valueName: "mode"))
        var observability = "off"
        @Option(
            help: ArgumentHelp(
                "Another build's concierge binary, measured beside this one in the same rounds (SQLite); the report gives each scenario's ratio to it.",
                valueName: "binary"))
        var before: String?
        @Flag(help: "Print JSON instead of a table.") var json = false

        func validate() throws {
            if let before, !FileManager.default.isExecutableFile(atPath: before) {
                throw ValidationError("--before: '\(before)' is not an executable file.")
            }
            guard connections > 0, duration > 0, rounds > 0, warmup >= 0 else {
                throw ValidationError("--connections, --duration and --rounds must be positive, --warmup not negative.")
            }
        }

        static func onPath(_ program: String) throws -> String {
            let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(program)") {
                return "\(directory)/\(program)"
            }
            throw ValidationError("'\(program)' is not on PATH.")
        }

        func run() async throws {
            var benchmark = HTTPBenchmark()
            benchmark.connections = connections
            benchmark.duration = .seconds(duration)
            benchmark.rounds = rounds
            benchmark.warmup = .seconds(warmup)
            benchmark.databaseURL = databaseURL.isEmpty ? nil : databaseURL
            benchmark.scenarios = scenarios.split(separator: ",").map { String($0) }
            benchmark.serverLogLevel = serverLogLevel
            guard let mode = BenchmarkObservability(rawValue: observability) else {
                throw ValidationError("--observability must be off, on or compare")
            }
            benchmark.observability = mode
            benchmark.beforeExecutable = before
            if let serverWrapper {
                var words = serverWrapper.split(separator: " ").map(String.init)
                if let program = words.first, !program.contains("/") {
                    words[0] = try Self.onPath(program)
                }
                benchmark.serverWrapper = words
            }
            #if DEBUG
                FileHandle.standardError.write(Data("note: a debug build; use -c release for real figures\n".utf8))
            #endif
            let quiet = json
            let report = try await benchmark.run { line in
                if !quiet { print(line) }
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print("")
                print(report.table)
            }
        }
    }
}
