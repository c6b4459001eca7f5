import ConciergeStore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A PostgreSQL server of the drill's own, as the test suites start theirs: `initdb` into a
/// folder, `pg_ctl start` on loopback and a free port (as the `postgres` user when run as root,
/// which PostgreSQL refuses), stopped and removed by `stop()`.
final class ThrowawayPostgres: @unchecked Sendable {
    let port: Int
    let binaries: String
    private let directory: URL
    private let asUser: String?

    static func start(in parent: URL) async throws -> ThrowawayPostgres {
        guard let binaries = findBinaries() else {
            throw LoadError(
                "PostgreSQL's server programs (initdb, pg_ctl) were not found: install them (Debian/Ubuntu: "
                    + "`apt-get install -y postgresql`) or point CONCIERGE_PG_BIN at their folder")
        }
        let server = ThrowawayPostgres(
            port: try await ServerProcess.freePort(), binaries: binaries,
            directory: parent.appendingPathComponent("postgres"), asUser: geteuid() == 0 ? "postgres" : nil)
        try await server.initialise()
        return server
    }

    private init(port: Int, binaries: String, directory: URL, asUser: String?) {
        self.port = port
        self.binaries = binaries
        self.directory = directory
        self.asUser = asUser
    }

    private var dataDirectory: String { directory.appendingPathComponent("data").path }

    private func initialise() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if asUser != nil { try await run("/bin/chown", ["-R", "postgres", directory.path], asIs: true) }
        try await run("initdb", ["-D", dataDirectory, "-U", "concierge", "--auth=trust", "-E", "UTF8", "--no-sync"])
        let options =
            "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        try await run(
            "pg_ctl",
            ["-D", dataDirectory, "-o", options, "-l", directory.appendingPathComponent("log").path, "-w", "start"])
    }

    /// A new, empty database's URL.
    func makeDatabase(_ name: String) async throws -> String {
        try await run(
            "psql",
            [
                "-h", "127.0.0.1", "-p", "\(port)", "-U", "concierge", "-d", "postgres", "-q", "-c",
                "CREATE DATABASE \(name)",
            ])
        return "postgres://concierge@127.0.0.1:\(port)/\(name)"
    }

    func stop() async {
        try? await run("pg_ctl", ["-D", dataDirectory, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: directory)
    }

    private func run(_ tool: String, _ arguments: [String], asIs: Bool = false) async throws {
        let path = asIs ? tool : "\(binaries)/\(tool)"
        let (program, all) =
            if let asUser, !asIs { ("/usr/sbin/runuser", ["-u", asUser, "--", path] + arguments) } else {
                (path, arguments)
            }
        let log = directory.appendingPathComponent("\(tool.split(separator: "/").last ?? "tool").out").path
        let status = try await ChildRun.run(program, all, environment: ProcessInfo.processInfo.environment, log: log)
        guard status == 0 else {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw LoadError("\(tool) \(arguments.joined(separator: " ")) failed (exit \(status)): \(output)")
        }
    }

    /// `CONCIERGE_PG_BIN`, then Debian's versioned folders (newest first), then `PATH`.
    static func findBinaries() -> String? {
        PostgresPrograms.folder(holding: ["initdb", "pg_ctl", "psql"])
    }
}

/// A program run to its end on a thread of its own, its output appended to `log`.
enum ChildRun {
    static func run(_ program: String, _ arguments: [String], environment: [String: String], log: String)
        async throws -> Int32
    {
        let process = try SpawnedProcess(
            executable: program, arguments: arguments, environment: environment, outputPath: log, errorPath: log)
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume(returning: process.exitStatus ?? -1)
            }
        }
    }
}
