import AsyncHTTPClient
import ConciergeCore
import ConciergeProviders
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdHTTP2
import Logging
import NIOCore
import NIOSSL
import Testing

/// The Apple Push adapter over real HTTP/2 with TLS, against a local stub that answers like
/// APNs: notices multiplexed on one open connection, one provider token for all of them, and a
/// device the stub calls `Unregistered` deactivated.
@Suite struct APNsHTTP2StubTests {
    /// Tells the stub's handlers which connection and protocol a request came over.
    struct StubContext: RequestContext {
        var coreContext: CoreRequestContextStorage
        /// An HTTP/2 stream's parent is its connection, whose parent is the listening socket;
        /// an HTTP/1 connection's parent is the listening socket itself.
        let overHTTP2: Bool
        let connection: ObjectIdentifier?

        init(source: ApplicationRequestContextSource) {
            coreContext = .init(source: source)
            overHTTP2 = source.channel.parent?.parent != nil
            connection = source.channel.parent.map { ObjectIdentifier($0) }
        }
    }

    struct Seen: Sendable {
        let path: String
        let overHTTP2: Bool
        let connection: ObjectIdentifier?
        let authorization: String?
        let pushType: String?
    }

    actor Log {
        private(set) var seen: [Seen] = []
        func record(_ request: Seen) { seen.append(request) }
    }

    static let goneDevice = "0f0e0d0c0b0a09080706050403020100f0e0d0c0b0a090807060504030201000"

    static func router(log: Log, unregistered: Data) -> Router<StubContext> {
        let router = Router(context: StubContext.self)
        router.post("/3/device/:token") { request, context -> Response in
            _ = try await request.body.collect(upTo: 8192)
            let token = context.parameters.get("token") ?? ""
            await log.record(
                Seen(
                    path: request.uri.path, overHTTP2: context.overHTTP2, connection: context.connection,
                    authorization: request.headers[.authorization],
                    pushType: request.headers[HTTPField.Name("apns-push-type")!]))
            if token == goneDevice {
                return Response(
                    status: .gone, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(bytes: unregistered)))
            }
            return Response(status: .ok, headers: [HTTPField.Name("apns-id")!: "8c1f5f3e-3b2d-4a6f-9a7e-2f1d0c9b8a71"])
        }
        return router
    }

    /// Runs the stub on an ephemeral port with TLS (the SMTP tests' self-signed certificate,
    /// which names 127.0.0.1) offering HTTP/2, for the duration of `body`.
    static func withStub(
        _ router: Router<StubContext>, _ body: @Sendable (_ baseURL: String) async throws -> Void
    ) async throws {
        var quiet = Logger(label: "apns-stub")
        quiet.logLevel = .critical
        let certificates = try NIOSSLCertificate.fromPEMBytes(Array(SMTPTestServer.certificatePEM.utf8))
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificates.map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(SMTPTestServer.privateKeyPEM.utf8), format: .pem))
        )
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, server: try .http2Upgrade(tlsConfiguration: tls),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                if let port = channel.localAddress?.port { portContinuation.yield(port) }
                portContinuation.finish()
            },
            logger: quiet)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next(), "the stub did not report its port")
            try await body("https://127.0.0.1:\(port)")
        }
    }

    /// A client like `APNsPushSender.sharedClient` that trusts the stub's certificate.
    static func client() throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(SMTPTestServer.certificatePEM.utf8)))
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    @Test func noticesShareOneHTTP2ConnectionAndOneTokenAndAGoneDeviceIsDeactivated() async throws {
        let log = Log()
        let unregistered = try APNsFixture.response("unregistered").body
        let key = APNsFixture.key()
        let clock = ManualTimeSource(APNsFixture.issuedAt)
        let devices = MemoryPushDevices([
            APNsFixture.sandboxDevice: "sandbox", APNsFixture.productionDevice: "production",
            Self.goneDevice: "sandbox",
        ])
        let client = try Self.client()
        do {
            try await Self.withStub(Self.router(log: log, unregistered: unregistered)) { baseURL in
                let sender = APNsPushSender(
                    token: try await APNsProviderToken(
                        privateKeyPEM: key.pem, keyID: APNsFixture.keyID, teamID: APNsFixture.teamID, clock: clock),
                    topic: APNsFixture.topic, devices: devices, clock: clock,
                    transport: AsyncHTTPClientTransport(client: client), sandboxURL: baseURL, productionURL: baseURL)
                for device in [APNsFixture.sandboxDevice, APNsFixture.productionDevice] {
                    try await sender.sendPush(
                        to: device, title: "Leave now", body: "Leave now to reach Winterthur by 08:30.",
                        data: ["tripId": "trp_1"], deliveryKey: "k-\(device)")
                }
                try await sender.sendPush(
                    to: APNsFixture.productionDevice, title: "", body: "",
                    data: ["status": "leave_now", "apns-push-type": "liveactivity"], deliveryKey: "la")
                let error = await #expect(throws: ConciergeError.self) {
                    try await sender.sendPush(
                        to: Self.goneDevice, title: "Leave now", body: "Leave now.", data: [:], deliveryKey: "gone")
                }
                #expect(error?.code == "apns_device_unregistered")
            }
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()

        let seen = await log.seen
        #expect(seen.count == 4)
        #expect(seen.filter { !$0.overHTTP2 }.isEmpty, "every notice went over HTTP/2")
        #expect(Set(seen.map(\.connection)).count == 1, "one connection, kept open")
        #expect(Set(seen.map(\.authorization)).count == 1, "one provider token for all")
        #expect(seen.map(\.pushType) == ["alert", "alert", "liveactivity", "alert"])
        #expect(await devices.deactivated[Self.goneDevice] == "Unregistered")
        #expect(try await devices.pushEnvironment(ofDevice: Self.goneDevice) == nil)
    }
}
