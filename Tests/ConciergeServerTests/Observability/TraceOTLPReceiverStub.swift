import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// A stand-in OpenTelemetry collector on a loopback port: takes every `POST /v1/traces`, keeps
/// its content type and body, and answers as a collector does (an empty export response). It
/// also stands in for an identity provider's keys (`GET /certs`, an empty key set), keeping the
/// `traceparent` each call carried, so a provider call's propagation can be checked too.
final class TraceOTLPReceiverStub: @unchecked Sendable {
    struct Export: Sendable {
        let contentType: String
        let body: Data
    }

    let port: Int
    private let lock = NSLock()
    private var received: [Export] = []
    private var keyFetches: [String] = []

    private init(port: Int) {
        self.port = port
    }

    var endpoint: String { "http://127.0.0.1:\(port)" }
    var exports: [Export] { lock.withLock { received } }
    /// The `traceparent` of each `GET /certs` ("" when it had none).
    var keyFetchTraceparents: [String] { lock.withLock { keyFetches } }

    /// Runs `body` with a receiver listening; stops it afterwards.
    static func run<T: Sendable>(_ body: @Sendable (TraceOTLPReceiverStub) async throws -> T) async throws -> T {
        let box = ReceiverBox()
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 16 << 20)
            let contentType = request.headers[.contentType] ?? ""
            box.stub?.keep(Export(contentType: contentType, body: Data(buffer: bytes)))
            let json = contentType.hasPrefix("application/json")
            return Response(
                status: .ok, headers: [.contentType: json ? "application/json" : "application/x-protobuf"],
                body: .init(byteBuffer: ByteBuffer(string: json ? "{}" : "")))
        }
        router.get("/certs") { request, _ -> Response in
            box.stub?.keepKeyFetch(request.headers[.init("traceparent")!] ?? "")
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"keys":[]}"#)))
        }
        var logger = Logger(label: "otlp-stub")
        logger.logLevel = .critical
        let ports = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { ports.continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.stream.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else { throw TestFailure("the OTLP stub did not start") }
            let stub = TraceOTLPReceiverStub(port: port)
            box.stub = stub
            do {
                let result = try await body(stub)
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

    /// Polls (bounded, every 25 ms for up to 20 s) until the exports so far satisfy `done`.
    func waitUntil(_ done: ([Export]) -> Bool) async throws -> [Export] {
        for _ in 0..<800 {
            let now = exports
            if done(now) { return now }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw TestFailure("the OTLP stub never received the expected spans; it got \(exports.count) exports")
    }

    private func keep(_ export: Export) {
        lock.withLock { received.append(export) }
    }

    private func keepKeyFetch(_ traceparent: String) {
        lock.withLock { keyFetches.append(traceparent) }
    }

    /// Set once the port is known; the route only runs after that.
    private final class ReceiverBox: @unchecked Sendable {
        var stub: TraceOTLPReceiverStub?
    }
}

extension Data {
    /// Whether `needle` occurs anywhere in these bytes.
    func holds(_ needle: Data) -> Bool { range(of: needle) != nil }

    func holds(_ text: String) -> Bool { holds(Data(text.utf8)) }

    /// The bytes a hex string spells (a trace or span id).
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        self.init(bytes)
    }
}
