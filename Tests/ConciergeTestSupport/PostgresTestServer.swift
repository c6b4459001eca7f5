import ConciergeStore
import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A throwaway PostgreSQL server for the tests: `initdb` into a temporary folder, `pg_ctl start`
/// on loopback and a free port, removed when the test process exits. One server per process;
/// each test gets its own database on it.
public actor PostgresTestServer {
    public static let shared = PostgresTestServer()

    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    private var started: (port: Int, directory: URL, binaries: URL, asUser: String?)?

    /// True when the environment asks to leave PostgreSQL out (`CONCIERGE_SKIP_POSTGRES=1`).
    public static var skipRequested: Bool {
        ProcessInfo.processInfo.environment["CONCIERGE_SKIP_POSTGRES"] == "1"
    }

    /// The URL of a new, empty database on the shared server.
    public func makeDatabaseURL() async throws -> String {
        let port = try startIfNeeded()
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try run(
            tool: "psql",
            [
                "-h", "127.0.0.1", "-p", "\(port)", "-U", "concierge", "-d", "postgres",
                "-q", "-c", "CREATE DATABASE \(name)",
            ])
        return "postgres://concierge@127.0.0.1:\(port)/\(name)"
    }

    private func startIfNeeded() throws -> Int {
        if let started { return started.port }
        guard let binaries = Self.findBinaries() else {
            throw Unavailable(
                description: """
                    PostgreSQL server binaries (initdb, pg_ctl) were not found, so the PostgreSQL tests cannot run. \
                    Install them (Debian/Ubuntu: `apt-get install -y postgresql`; macOS: `brew install postgresql@16`) \
                    or point CONCIERGE_PG_BIN at their folder. To run without them set CONCIERGE_SKIP_POSTGRES=1.
                    """)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "concierge-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // PostgreSQL refuses to run as root; run it as the `postgres` user then.
        let asUser: String? = geteuid() == 0 ? "postgres" : nil
        if asUser != nil {
            try Self.execute("/bin/chown", ["-R", "postgres", directory.path])
        }
        started = (0, directory, binaries, asUser)
        let dataDir = directory.appendingPathComponent("data").path
        try run(tool: "initdb", ["-D", dataDir, "-U", "concierge", "--auth=trust", "-E", "UTF8", "--no-sync"])
        let port = try Self.freePort()
        let options =
            "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=1000"
        try run(
            tool: "pg_ctl",
            ["-D", dataDir, "-o", options, "-l", directory.appendingPathComponent("log").path, "-w", "start"])
        started = (port, directory, binaries, asUser)
        Self.registerCleanup(dataDir: dataDir, directory: directory, binaries: binaries, asUser: asUser)
        return port
    }

    private func run(tool: String, _ arguments: [String]) throws {
        guard let started else { return }
        let path = started.binaries.appendingPathComponent(tool).path
        if let user = started.asUser {
            try Self.execute("/usr/sbin/runuser", ["-u", user, "--", path] + arguments)
        } else {
            try Self.execute(path, arguments)
        }
    }

    /// Runs a program to completion (`ChildProcess`: posix_spawn and waitpid; Foundation's
    /// `Process` notices a child's exit only when every inheritor of an internal descriptor has
    /// closed it, and `pg_ctl start` leaves the server holding it forever).
    static func execute(_ executable: String, _ arguments: [String]) throws {
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(executable, arguments, withErrors: true)
        } catch {
            throw Unavailable(description: "cannot start \(executable): \(error)")
        }
        guard outcome.exitStatus == 0 else {
            throw Unavailable(
                description: "\(executable) \(arguments.joined(separator: " ")) failed: \(outcome.output)")
        }
    }

    /// `CONCIERGE_PG_BIN`, then Debian's versioned folders (newest first), then `PATH`.
    static func findBinaries() -> URL? {
        PostgresPrograms.folder(
            holding: ["initdb", "pg_ctl", "psql"],
            in: PostgresPrograms.searchFolders() + ["/opt/homebrew/bin", "/usr/local/bin"]
        ).map { URL(fileURLWithPath: $0) }
    }

    /// Asks the kernel for a free loopback port.
    public static func freePort() throws -> Int {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Unavailable(description: "cannot open a socket to find a free port") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else { throw Unavailable(description: "cannot bind a socket to find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func registerCleanup(dataDir: String, directory: URL, binaries: URL, asUser: String?) {
        cleanup.withLock {
            $0 = { () in
                let pgctl = binaries.appendingPathComponent("pg_ctl").path
                let stop = ["-D", dataDir, "-m", "immediate", "-w", "stop"]
                if let asUser {
                    try? execute("/usr/sbin/runuser", ["-u", asUser, "--", pgctl] + stop)
                } else {
                    try? execute(pgctl, stop)
                }
                try? FileManager.default.removeItem(at: directory)
            }
        }
        atexit { PostgresTestServer.cleanup.withLock { $0?() } }
    }

    private static let cleanup = LockedBox<(@Sendable () -> Void)?>(nil)
}

/// A value behind a lock, for the process-exit hook.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
