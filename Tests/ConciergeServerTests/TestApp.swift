import ConciergeCore
import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore

@testable import ConciergeServer

/// A Concierge server as built for production, run in process on one engine, with a clock that
/// moves only when told.
struct TestApp {
    let configuration: ServerConfiguration
    let clock: ManualTimeSource

    static let quiet: Logger = {
        var logger = Logger(label: "concierge.tests")
        logger.logLevel = .critical
        return logger
    }()

    /// `environment` is applied on top of a test database on `engine`.
    static func make(
        engine: TestEngine, environment: [String: String] = [:], clock: ManualTimeSource = ManualTimeSource()
    ) async throws -> TestApp {
        let location = try await engine.makeDatabaseLocation()
        var variables = environment
        variables[engine == .sqlite ? "CONCIERGE_SQLITE_PATH" : "DATABASE_URL"] = location
        variables["CONCIERGE_LOG_LEVEL"] = variables["CONCIERGE_LOG_LEVEL"] ?? "critical"
        return TestApp(configuration: try ServerConfiguration(environment: variables), clock: clock)
    }

    /// Another instance on the same database (a second server behind the load balancer, or the
    /// same one after a restart).
    func sibling(environment: [String: String] = [:]) throws -> TestApp {
        var configuration = self.configuration
        if let trust = environment["CONCIERGE_TRUST_PROXY"] { configuration.trustProxy = trust == "true" }
        return TestApp(configuration: configuration, clock: clock)
    }

    func run<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await runWithWorker { client, _ in try await body(client) }
    }

    /// Like `run`, and hands over the background worker so a test says when it runs (its own
    /// loop only ticks at start and then hourly in tests).
    func runWithWorker<Value: Sendable>(
        payments: (any PaymentProvider)? = nil, random: any RandomSource = SystemRandomSource(),
        _ body: @Sendable (any TestClientProtocol, MaintenanceService) async throws -> Value
    ) async throws -> Value {
        var configuration = self.configuration
        configuration.workerInterval = 3600
        let assembly = try await assemble(
            configuration: configuration, clock: clock, logger: Self.quiet, paymentProvider: payments,
            random: random)
        let app = makeApplication(assembly: assembly, configuration: configuration) { _ in }
        let worker = assembly.maintenance
        return try await app.test(.router) { client in try await body(client, worker) }
    }
}

extension TestClientProtocol {
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, token: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if json != nil { headers[.contentType] = "application/json" }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    /// Requests a code, reads it from the dev outbox, verifies it: the whole sign-in as an app does it.
    func signIn(phone: String = "+41791234567", headers: HTTPFields = [:]) async throws -> SMSCodeVerifyResponse {
        let sent = try await send(.post, "/rides/sms-code-send", json: #"{"phone": "\#(phone)"}"#, headers: headers)
        guard sent.status == .ok else {
            throw TestFailure("sms-code-send: \(sent.status) \(String(buffer: sent.body))")
        }
        let code = try await latestCode()
        let verified = try await send(
            .post, "/rides/sms-code-verify", json: #"{"phone": "\#(phone)", "code": "\#(code)"}"#, headers: headers)
        guard verified.status == .ok else { throw TestFailure("sms-code-verify: \(verified.status)") }
        return try verified.decode(SMSCodeVerifyResponse.self)
    }

    func latestCode() async throws -> String {
        let outbox = try await send(.get, "/dev/outbox")
        let listing = try JSONSerialization.jsonObject(with: Data(buffer: outbox.body)) as? [String: Any]
        let messages = listing?["messages"] as? [[String: Any]] ?? []
        guard let body = messages.last?["body"] as? String, let code = RecordingSMSSender.code(in: body) else {
            throw TestFailure("no code in the dev outbox")
        }
        return code
    }
}

extension TestResponse {
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: body))
    }

    var errorBody: ErrorBody? { try? decode(ErrorBody.self) }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
