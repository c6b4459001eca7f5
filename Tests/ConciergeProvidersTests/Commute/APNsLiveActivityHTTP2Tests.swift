import ConciergeCore
import ConciergeProviders
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing

/// Live Activity pushes as the commute scheduler queues them (a typed content state and the
/// state's own timestamp in the message's `apns-` options) over real HTTP/2 with TLS to the
/// local APNs stub: the headers, the `aps` Apple expects, and a token the stub calls
/// `Unregistered` forgotten.
@Suite struct APNsLiveActivityHTTP2Tests {
    struct Received: Sendable {
        let path: String
        let headers: [String: String]
        let body: Data
    }

    actor Log {
        private(set) var received: [Received] = []
        func record(_ request: Received) { received.append(request) }
    }

    static let activity = String(repeating: "80c1d2e3f4a5b6c7", count: 10)
    static let goneActivity = String(repeating: "0fe1d2c3b4a59687", count: 10)

    static func router(log: Log, unregistered: Data) -> Router<APNsHTTP2StubTests.StubContext> {
        let router = Router(context: APNsHTTP2StubTests.StubContext.self)
        router.post("/3/device/:token") { request, context -> Response in
            let body = try await request.body.collect(upTo: 8192)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            await log.record(Received(path: request.uri.path, headers: headers, body: Data(body.readableBytesView)))
            if context.parameters.get("token") == goneActivity {
                return Response(
                    status: .gone, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(bytes: unregistered)))
            }
            return Response(status: .ok, headers: [HTTPField.Name("apns-id")!: "4e0d7a2c-6f1b-4b8e-9c3a-5d2e1f0a9b87"])
        }
        return router
    }

    static func aps(_ received: Received) throws -> [String: Any] {
        let payload = try #require(try JSONSerialization.jsonObject(with: received.body) as? [String: Any])
        #expect(payload.count == 1, "only aps")
        return try #require(payload["aps"] as? [String: Any])
    }

    @Test func updatesAndTheEndCarryTheTypedStateAndAGoneTokenIsForgotten() async throws {
        let log = Log()
        let key = APNsFixture.key()
        let clock = ManualTimeSource(APNsFixture.issuedAt.addingTimeInterval(120))
        let devices = MemoryPushDevices([Self.activity: "production", Self.goneActivity: "sandbox"])
        let client = try APNsHTTP2StubTests.client()
        let state =
            #"{"destination":"Winterthur","leaveAt":"2026-09-01T07:12:00.000Z","status":"planned","travelMinutes":38}"#
        // The scheduler's state time: a minute before the sender's clock (a retried message).
        let stateTime = Int(APNsFixture.issuedAt.timeIntervalSince1970) + 60
        do {
            try await APNsHTTP2StubTests.withStub(
                Self.router(log: log, unregistered: try APNsFixture.response("unregistered").body)
            ) { baseURL in
                let sender = APNsPushSender(
                    token: try await APNsProviderToken(
                        privateKeyPEM: key.pem, keyID: APNsFixture.keyID, teamID: APNsFixture.teamID, clock: clock),
                    topic: APNsFixture.topic, devices: devices, clock: clock,
                    transport: AsyncHTTPClientTransport(client: client), sandboxURL: baseURL, productionURL: baseURL)
                for (event, expires) in [("update", stateTime + 600), ("end", stateTime + 900)] {
                    try await sender.sendPush(
                        to: Self.activity, title: "", body: "",
                        data: [
                            PushOptionKeys.pushType: "liveactivity", PushOptionKeys.event: event,
                            PushOptionKeys.contentState: state, PushOptionKeys.timestamp: String(stateTime),
                            PushOptionKeys.expiration: String(expires),
                        ], deliveryKey: "la-\(event)")
                }
                let error = await #expect(throws: ConciergeError.self) {
                    try await sender.sendPush(
                        to: Self.goneActivity, title: "", body: "",
                        data: [PushOptionKeys.pushType: "liveactivity", PushOptionKeys.contentState: state],
                        deliveryKey: "la-gone")
                }
                #expect(error?.code == "apns_device_unregistered")
            }
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()

        let received = await log.received
        #expect(
            received.map(\.path) == [
                "/3/device/\(Self.activity)", "/3/device/\(Self.activity)", "/3/device/\(Self.goneActivity)",
            ])
        let update = try #require(received.first)
        #expect(update.headers["apns-push-type"] == "liveactivity")
        #expect(update.headers["apns-topic"] == APNsFixture.topic + ".push-type.liveactivity")
        #expect(update.headers["apns-priority"] == "10")
        #expect(update.headers["apns-expiration"] == String(stateTime + 600))
        let updateAPS = try Self.aps(update)
        #expect(updateAPS["event"] as? String == "update")
        #expect(updateAPS["timestamp"] as? Int == stateTime, "the state's time, not the send time")
        #expect(updateAPS["stale-date"] as? Int == stateTime + 600)
        #expect(updateAPS["alert"] == nil)
        let content = try #require(updateAPS["content-state"] as? [String: Any])
        #expect(content["travelMinutes"] as? Int == 38, "typed, not a string")
        #expect(content["status"] as? String == "planned" && content["destination"] as? String == "Winterthur")
        let endAPS = try Self.aps(received[1])
        #expect(endAPS["event"] as? String == "end")
        #expect(endAPS["dismissal-date"] as? Int == stateTime + 900)
        #expect(endAPS["stale-date"] == nil)
        #expect(await devices.deactivated[Self.goneActivity] == "Unregistered")
        #expect(try await devices.pushEnvironment(ofDevice: Self.goneActivity) == nil)
    }
}
