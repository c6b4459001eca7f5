import ConciergeCore
import ConciergeKit
import ConciergeServer
import ConciergeTestSupport
import Foundation
import Logging
import ServiceLifecycle

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A live server for the events SDK: the worker ticks every second (verification emails reach
/// the dev outbox quickly) and bcrypt is cheap.
enum EventsLiveServer {
    /// The server's admin token, which issues scanner tokens for the door.
    static let adminToken = "kit-events-admin-token-0123456789abcdef"

    static func run<T: Sendable>(_ body: @Sendable (URL) async throws -> T) async throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kit-events-\(UUID().uuidString).sqlite"
        )
        .path
        let port = try PostgresTestServer.freePort()
        let configuration = try ServerConfiguration(environment: [
            "CONCIERGE_SQLITE_PATH": path, "CONCIERGE_PORT": "\(port)", "CONCIERGE_LOG_LEVEL": "critical",
            "CONCIERGE_WORKER_INTERVAL_SECONDS": "1", "CONCIERGE_BCRYPT_COST": "4",
            "CONCIERGE_ADMIN_TOKEN": adminToken,
        ])
        var logger = Logger(label: "concierge.kit-events-tests")
        logger.logLevel = .critical
        let ports = AsyncStream<Int>.makeStream()
        let app = try await buildApplication(
            configuration: configuration, clock: ManualTimeSource(Date()), logger: logger
        ) {
            ports.continuation.yield($0)
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.stream.makeAsyncIterator()
            guard let bound = await iterator.next() else { throw CancellationError() }
            defer { try? FileManager.default.removeItem(atPath: path) }
            do {
                let result = try await body(URL(string: "http://127.0.0.1:\(bound)")!)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    /// The token of the newest verification link mailed to `email` (waits for the worker).
    static func verificationToken(_ server: URL, email: String) async throws -> String {
        for _ in 0..<100 {
            let (data, _) = try await URLSession.shared.data(from: server.appendingPathComponent("dev/outbox"))
            let text = String(decoding: data, as: UTF8.self)
            let marker = "verify-email?token="
            if text.contains(email), let range = text.range(of: marker, options: .backwards) {
                return String(
                    text[range.upperBound...].prefix {
                        $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_")
                    })
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CancellationError()
    }

    /// A door scanner's own token, issued through the admin API.
    static func scannerToken(_ server: URL, name: String) async throws -> String {
        struct Issued: Decodable { let token: String }
        var request = URLRequest(url: server.appendingPathComponent("events/api/admin/scanner-tokens"))
        request.httpMethod = "POST"
        request.setValue("Bearer \(adminToken)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(["name": name])
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONDecoder().decode(Issued.self, from: data).token
    }

    /// Presses "paid" on the sandbox checkout page.
    static func pay(_ checkoutURL: String) async throws {
        var request = URLRequest(url: URL(string: checkoutURL)!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("outcome=paid".utf8)
        _ = try await URLSession.shared.data(for: request)
    }
}
