import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `concierge serve` child process on a loopback port: started, waited for, measured and
/// stopped (gracefully, or with kill -9 for the crash suite).
final class ServerProcess: @unchecked Sendable {
    let port: Int
    let logPath: String
    /// From spawning the process to its first `200` on `/ready`.
    private(set) var startToReady: Duration = .zero
    private let launch: @Sendable () throws -> SpawnedProcess
    private let started = NIOLockedValueBox<SpawnedProcess?>(nil)

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var pid: Int32 { started.withLockedValue { $0?.pid ?? 0 } }

    /// Prepares `executable serve` on `port` with `environment` on top of PATH and HOME only: a
    /// stray `DATABASE_URL` or provider key in the caller's shell must not change what is measured.
    /// `wrapper` runs the server under another program, e.g. `valgrind --tool=callgrind`.
    init(
        executable: String, port: Int, environment: [String: String], logPath: String, wrapper: [String] = []
    ) throws {
        self.port = port
        self.logPath = logPath
        let inherited = ProcessInfo.processInfo.environment
        var variables = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp"]
        for (name, value) in environment { variables[name] = value }
        variables["CONCIERGE_HOST"] = "127.0.0.1"
        variables["CONCIERGE_PORT"] = String(port)
        variables["CONCIERGE_PUBLIC_URL"] = "http://127.0.0.1:\(port)"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let program = wrapper.first ?? executable
        let arguments = wrapper.isEmpty ? ["serve"] : Array(wrapper.dropFirst()) + [executable, "serve"]
        launch = { [variables] in
            try SpawnedProcess(
                executable: program, arguments: arguments, environment: variables, outputPath: logPath,
                errorPath: logPath)
        }
    }

    /// Spawns the server and returns once `/ready` answers 200, or throws after `timeout`.
    func start(timeout: Duration = .seconds(30)) async throws {
        let clock = ContinuousClock()
        let began = clock.now
        let process = try launch()
        started.withLockedValue { $0 = process }
        while clock.now - began < timeout {
            guard process.isRunning else {
                throw LoadError("the server exited during start-up; see \(logPath)")
            }
            // Each probe is bounded: whatever else might listen on the port must not hang it.
            if await Self.probe("/ready", port: port, timeout: .seconds(2)) == 200, process.isRunning {
                startToReady = clock.now - began
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw LoadError("the server was not ready within \(timeout); see \(logPath)")
    }

    /// The most memory the process has held at once (VmHWM), in bytes; nil where /proc is missing.
    var peakResidentBytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }

    var isRunning: Bool { started.withLockedValue { $0 }?.isRunning ?? false }
    var exitStatus: Int32? { started.withLockedValue { $0 }?.exitStatus }

    /// SIGTERM, then waits: in-flight requests finish first.
    func stop() {
        guard let process = started.withLockedValue({ $0 }), process.isRunning else { return }
        process.signal(SIGTERM)
        process.waitUntilExit()
    }

    /// kill -9: no shutdown, no flush, as a power cut or the OOM killer would do it.
    func crash() {
        guard let process = started.withLockedValue({ $0 }), process.isRunning else { return }
        process.signal(SIGKILL)
        process.waitUntilExit()
    }

    /// A free loopback port, found by binding port 0 and letting it go.
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        guard port > 0 else { throw LoadError("no free port") }
        return port
    }

    /// A free loopback port below the kernel's ephemeral range, so that no socket bound to port
    /// 0 and no outgoing connection can take it between this check and the server's bind (tests
    /// running next to the crash drill open many of both). Falls back to `freePort()`.
    static func freePortOutsideEphemeralRange() async throws -> Int {
        var firstEphemeral = 32_768
        if let range = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
            let low = range.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap({ Int($0) })
        {
            firstEphemeral = low
        }
        let candidates = 20_000..<min(32_768, firstEphemeral)
        guard !candidates.isEmpty else { return try await freePort() }
        for _ in 0..<50 {
            let port = Int.random(in: candidates)
            if let channel = try? await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .bind(host: "127.0.0.1", port: port).get()
            {
                try await channel.close()
                return port
            }
        }
        return try await freePort()
    }

    /// This executable, which is also the server (`concierge serve`).
    static var ownExecutable: String {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// The status of `GET path`, or nil on any failure or after `timeout`.
    private static func probe(_ path: String, port: Int, timeout: Duration) async -> Int? {
        await withTaskGroup(of: Int?.self) { group in
            group.addTask { try? await get(path, port: port) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    private static func get(_ path: String, port: Int) async throws -> Int {
        try await HTTPConnection.with(host: "127.0.0.1", port: port) { try await $0.send(.get(path)).status }
    }
}
