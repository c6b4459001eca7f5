import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

@Suite struct SystemRoutesTests {
    @Test(arguments: TestEngine.all)
    func healthAndReadyAnswerOnAMigratedDatabase(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        try await app.run { client in
            #expect(try await client.send(.get, "/health").status == .ok)
            let ready = try await client.send(.get, "/ready")
            #expect(ready.status == .ok)
            #expect(String(buffer: ready.body).contains(#""status":"ready""#))
        }
    }

    @Test func readyIs503UntilMigrationsAreApplied() async throws {
        // With a given secret the server starts on an empty database without touching it.
        let app = try await TestApp.make(
            engine: .sqlite,
            environment: ["CONCIERGE_AUTO_MIGRATE": "false", "CONCIERGE_SECRET": String(repeating: "s", count: 32)])
        try await app.run { client in
            let ready = try await client.send(.get, "/ready")
            #expect(ready.status == .serviceUnavailable)
            #expect(ready.errorBody?.code == "not_ready")
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }

    @Test func theRequestIdIsEchoedOrMade() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let given = try await client.send(.get, "/health", headers: [.init("X-Request-Id")!: "abc-123"])
            #expect(given.headers[.init("X-Request-Id")!] == "abc-123")
            let made = try await client.send(.get, "/health", headers: [.init("X-Request-Id")!: "bad id\u{7}"])
            let id = try #require(made.headers[.init("X-Request-Id")!])
            #expect(id != "bad id\u{7}" && !id.isEmpty)
            let failed = try await client.send(.get, "/missing")
            #expect(failed.headers[.init("X-Request-Id")!] != nil)
        }
    }

    @Test func productionModeHasNoDevRoutes() async throws {
        let app = try await TestApp.make(
            engine: .sqlite,
            environment: [
                "CONCIERGE_MODE": "production", "CONCIERGE_SECRET": String(repeating: "s", count: 40),
                "TWILIO_ACCOUNT_SID": "AC" + String(repeating: "a", count: 32), "TWILIO_AUTH_TOKEN": "token",
                "TWILIO_FROM": "+41445551234", "CONCIERGE_PAYMENT_PROVIDER": "mollie", "MOLLIE_API_KEY": "live_abc",
                "CONCIERGE_PUBLIC_URL": "https://rides.example.com",
                "POSTMARK_TOKEN": "server-token", "CONCIERGE_EMAIL_FROM": "rides@example.com",
            ])
        try await app.run { client in
            let outbox = try await client.send(.get, "/dev/outbox")
            #expect(outbox.status == .notFound)
            let sandbox = try await client.send(.get, "/sandbox/checkout/sbx_1")
            #expect(sandbox.status == .notFound)
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }

    /// The OpenAPI document lists exactly the routes the server mounts.
    @Test func theOpenAPIDocumentMatchesTheMountedRoutes() async throws {
        // Dev mode with the admin API and /metrics on mounts every route there is.
        let app = try await TestApp.make(
            engine: .sqlite,
            environment: [
                "CONCIERGE_ADMIN_TOKEN": String(repeating: "a", count: 32),
                "CONCIERGE_METRICS_TOKEN": String(repeating: "m", count: 32),
            ])
        let assembly = try await assemble(configuration: app.configuration, clock: app.clock, logger: TestApp.quiet)
        let mounted = Set(
            assembly.router.routes.map { "\($0.method.rawValue.uppercased()) \(Self.openAPIPath($0.path.description))" }
        )
        try await assembly.database.close()
        let documented = try Self.documentedOperations(OpenAPIDocument.text())
        #expect(
            documented.subtracting(mounted).isEmpty, "documented but not mounted: \(documented.subtracting(mounted))")
        #expect(mounted.count >= 8)

        // The rest are the web front end's pages and assets, which are not API: each answers
        // with a page (HTML, or a redirect to one), never JSON, whatever it is sent.
        let pages = mounted.subtracting(documented)
        try await app.run { client in
            for operation in pages.sorted() where !operation.hasPrefix("GET /assets/") {
                let parts = operation.split(separator: " ", maxSplits: 1)
                let path = String(parts[1]).replacingOccurrences(
                    of: #"\{[^}]+\}"#, with: "x", options: .regularExpression)
                let method = HTTPRequest.Method(rawValue: String(parts[0]))!
                let answer = try await client.send(
                    method, path,
                    headers: method == .get ? [:] : [.contentType: "application/x-www-form-urlencoded"])
                let type = answer.headers[.contentType] ?? ""
                #expect(
                    type.hasPrefix("text/html") || answer.status == .seeOther,
                    "\(operation) is neither documented API nor a page: \(answer.status) \(type)")
            }
        }

        try await app.run { client in
            let served = try await client.send(.get, "/openapi.yaml")
            #expect(served.status == .ok)
            #expect(String(buffer: served.body).hasPrefix("openapi: 3.1.0"))
        }
    }

    /// `/rides/bookings/:ref` → `/rides/bookings/{ref}`.
    static func openAPIPath(_ path: String) -> String {
        "/"
            + path.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(
                separator: "/")
    }

    /// "GET /health", … read from the `paths:` section (two-space path keys, four-space methods).
    static func documentedOperations(_ yaml: String) -> Set<String> {
        var operations = Set<String>()
        var inPaths = false
        var currentPath: String?
        let methods: Set<String> = ["get", "post", "put", "patch", "delete", "head", "options"]
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty { inPaths = line == "paths:" }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), let path = currentPath {
                let key = line.trimmingCharacters(in: .whitespaces).dropLast()
                if line.hasSuffix(":"), methods.contains(String(key)) {
                    operations.insert("\(key.uppercased()) \(path)")
                }
            }
        }
        return operations
    }
}
