import AsyncHTTPClient
import ConciergeBenchmarks
import Foundation
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real `concierge serve` (the binary `swift test` builds) on a loopback port, for what
/// only a whole process shows: the global logging and tracing bootstraps. Its standard error
/// goes to a file the test reads once the server has stopped.
final class TraceServeProcess: @unchecked Sendable {
    let port: Int
    let logPath: String
    private let databasePath: String
    private let executable: String
    private let variables: [String: String]
    private var process: SpawnedProcess?

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// `environment` comes on top of PATH and HOME only: a stray `OTEL_*` or provider key in the
    /// caller's shell must not change what is tested.
    init(environment: [String: String]) throws {
        port = try Self.freePort()
        let id = UUID().uuidString
        logPath = FileManager.default.temporaryDirectory.appendingPathComponent("concierge-trace-\(id).log").path
        databasePath =
            FileManager.default.temporaryDirectory.appendingPathComponent("concierge-trace-\(id).sqlite")
            .path
        let inherited = ProcessInfo.processInfo.environment
        var variables = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp"]
        variables["CONCIERGE_SQLITE_PATH"] = databasePath
        variables["CONCIERGE_HOST"] = "127.0.0.1"
        variables["CONCIERGE_PORT"] = String(port)
        variables["CONCIERGE_PUBLIC_URL"] = "http://127.0.0.1:\(port)"
        for (name, value) in environment { variables[name] = value }
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        self.executable = try Self.serverBinary()
        self.variables = variables
    }

    deinit {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: databasePath + suffix) }
        try? FileManager.default.removeItem(atPath: logPath)
    }

    /// Spawns the server and returns once `/ready` answers 200 (a bounded poll).
    func start() async throws {
        let process = try SpawnedProcess(
            executable: executable, arguments: ["serve"], environment: variables, outputPath: nil, errorPath: logPath)
        self.process = process
        for _ in 0..<600 {
            guard process.isRunning else { throw TestFailure("the server exited during start-up: \(log)") }
            if let status = try? await get("/ready").status, status == 200 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("the server was not ready within 30 s: \(log)")
    }

    /// SIGTERM, then waits: requests finish and the span exporter sends what is left.
    func stop() {
        guard let process, process.isRunning else { return }
        process.signal(SIGTERM)
        process.waitUntilExit()
    }

    /// What the server wrote to standard error so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    struct Answer {
        let status: Int
        let headers: [(String, String)]
        let body: String

        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        }
    }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> Answer {
        try await send("GET", path, headers: headers)
    }

    func send(
        _ method: String, _ path: String, json: String? = nil, form: String? = nil, token: String? = nil,
        headers: [(String, String)] = []
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        } else if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        return Answer(
            status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
            body: String(buffer: body))
    }

    /// The `concierge` executable next to the running test binary, where `swift test` puts it.
    private static func serverBinary() throws -> String {
        var candidates: [String] = []
        #if os(Linux)
            if let test = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                candidates.append(
                    URL(fileURLWithPath: test).deletingLastPathComponent().appendingPathComponent("concierge").path)
            }
        #endif
        for bundle in Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("concierge").path)
        }
        candidates.append(FileManager.default.currentDirectoryPath + "/.build/debug/concierge")
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TestFailure("no concierge binary next to the tests: \(candidates)")
        }
        return found
    }

    /// A free loopback port: bind port 0, read what the kernel gave, let it go.
    private static func freePort() throws -> Int {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw TestFailure("no socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw TestFailure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
