import ConciergeCore
import ConciergeProviders
import Foundation
import Testing

/// The Apple Push adapter against the recorded APNs answers through the transport seam: the
/// provider token, the request Apple expects, and what each error means for the device and the
/// outbox.
@Suite struct APNsPushSenderTests {
    let clock = ManualTimeSource(APNsFixture.issuedAt)
    let key = APNsFixture.key()

    func sender(_ transport: ScriptedAPNs, devices: MemoryPushDevices = MemoryPushDevices()) async throws
        -> APNsPushSender
    {
        let token = try await APNsProviderToken(
            privateKeyPEM: key.pem, keyID: APNsFixture.keyID, teamID: APNsFixture.teamID, clock: clock)
        return APNsPushSender(
            token: token, topic: APNsFixture.topic, devices: devices, clock: clock, transport: transport)
    }

    static let leaveSoon: [String: String] = [
        "tripId": "trp_1", "kind": "leave_soon", "leaveAt": "2026-09-01T08:15:00Z",
        "apns-collapse-id": "trp_1:2026-09-01", "apns-expiration": "1788249600",
    ]

    @Test func theProviderTokenIsES256WithTheKeyIDAndANumericIssuedAtSignedByTheP8Key() async throws {
        let token = try await APNsProviderToken(
            privateKeyPEM: key.pem, keyID: APNsFixture.keyID, teamID: APNsFixture.teamID, clock: clock)
        let jwt = try DecodedJWT(try await token.token())
        let recorded = try #require(try APNsFixture.examples()["provider_token"] as? [String: Any])
        let recordedHeader = try #require(recorded["jwt_header"] as? [String: String])
        #expect(jwt.header["alg"] as? String == recordedHeader["alg"])
        #expect(jwt.header["kid"] as? String == recordedHeader["kid"])
        #expect(jwt.claims["iss"] as? String == APNsFixture.teamID)
        // A number, as Apple specifies (APNSwift sends a string): the recorded claims' text.
        #expect(jwt.claimsText.contains(#""iat":1788244200"#), "\(jwt.claimsText)")
        #expect(jwt.claims.count == 2, "only iss and iat: \(jwt.claimsText)")
        #expect(try jwt.isSigned(by: key.publicKey))
        #expect(try !jwt.isSigned(by: APNsFixture.key().publicKey))
    }

    @Test func oneTokenServesFiftyMinutesThenAFreshOneIsSigned() async throws {
        let token = try await APNsProviderToken(
            privateKeyPEM: key.pem, keyID: APNsFixture.keyID, teamID: APNsFixture.teamID, clock: clock)
        let first = try await token.token()
        clock.advance(by: 49 * 60 + 59)
        #expect(try await token.token() == first)
        clock.advance(by: 1)
        let second = try await token.token()
        #expect(second != first)
        #expect(try DecodedJWT(second).claims["iat"] as? Int == 1_788_244_200 + 50 * 60)
        // A rejected token is replaced once; a caller holding the old one gets the new one.
        let third = try await token.replacing(second)
        #expect(third != second)
        #expect(try await token.replacing(second) == third)
    }

    @Test func anAlertGoesToTheSandboxHostWithTheRecordedHeadersAndPayload() async throws {
        let transport = ScriptedAPNs([try APNsFixture.response("alert_ok")])
        let sender = try await sender(transport)
        try await sender.sendPush(
            to: APNsFixture.sandboxDevice, title: "Leave in 10 minutes", body: "Leave at 08:15 to reach Winterthur.",
            data: Self.leaveSoon, deliveryKey: "commute:trp_1:2026-09-01:soon:push:5f2c")
        let request = try #require(await transport.requests.first)
        let recorded = try #require(try APNsFixture.example("alert_ok")["request"] as? [String: Any])
        let recordedHeaders = try #require(recorded["headers"] as? [String: String])
        #expect(request.method == "POST")
        #expect(request.url == "https://" + (recorded["host"] as? String ?? "") + (recordedHeaders[":path"] ?? ""))
        for name in ["apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "content-type"] {
            #expect(request.header(name) == recordedHeaders[name], "\(name)")
        }
        #expect(request.header("apns-collapse-id") == "trp_1:2026-09-01")
        let jwt = try DecodedJWT(String(try #require(request.header("authorization")?.dropFirst("bearer ".count))))
        #expect(try jwt.isSigned(by: key.publicKey))
        // The same message on every attempt has the same canonical apns-id.
        let apnsID = try #require(request.header("apns-id"))
        #expect(UUID(uuidString: apnsID) != nil && apnsID == apnsID.lowercased())

        let payload = try #require(try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any])
        let aps = try #require(payload["aps"] as? [String: Any])
        #expect(
            aps["alert"] as? [String: String] == [
                "title": "Leave in 10 minutes", "body": "Leave at 08:15 to reach Winterthur.",
            ])
        #expect(aps["sound"] as? String == "default")
        #expect(aps["thread-id"] as? String == "trp_1:2026-09-01")
        // Custom data beside `aps`, the options as headers only.
        #expect(payload["tripId"] as? String == "trp_1" && payload["kind"] as? String == "leave_soon")
        #expect(payload.keys.allSatisfy { !$0.hasPrefix("apns-") })
    }

    @Test func aProductionDeviceGoesToTheProductionHost() async throws {
        let transport = ScriptedAPNs([try APNsFixture.response("alert_ok")])
        try await sender(transport).sendPush(
            to: APNsFixture.productionDevice, title: "Leave now", body: "Leave now.", data: [:], deliveryKey: nil)
        #expect(
            await transport.requests.first?.url == "https://api.push.apple.com/3/device/\(APNsFixture.productionDevice)"
        )
        #expect(await transport.requests.first?.header("apns-id") == nil)
    }

    @Test func aLiveActivityUpdateHasTheRecordedShape() async throws {
        let transport = ScriptedAPNs([try APNsFixture.response("live_activity_update_ok")])
        clock.set(Date(timeIntervalSince1970: 1_788_245_100))
        try await sender(transport).sendPush(
            to: APNsFixture.productionDevice, title: "Driver delayed", body: "New arrival time 08:27.",
            data: [
                "status": "driver_en_route", "etaMinutes": "12", "driverName": "Sam", "apns-push-type": "liveactivity",
                "apns-expiration": "1788246000",
            ], deliveryKey: "la-1")
        let request = try #require(await transport.requests.first)
        let recorded = try #require(try APNsFixture.example("live_activity_update_ok")["request"] as? [String: Any])
        let headers = try #require(recorded["headers"] as? [String: String])
        #expect(request.header("apns-topic") == headers["apns-topic"])
        #expect(request.header("apns-push-type") == "liveactivity")
        let payload = try #require(try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any])
        let aps = try #require(payload["aps"] as? [String: Any])
        let recordedAPS = try #require((recorded["body"] as? [String: Any])?["aps"] as? [String: Any])
        #expect(aps["timestamp"] as? Int == recordedAPS["timestamp"] as? Int)
        #expect(aps["event"] as? String == "update")
        #expect(aps["stale-date"] as? Int == recordedAPS["stale-date"] as? Int)
        #expect(aps["alert"] as? [String: String] == recordedAPS["alert"] as? [String: String])
        #expect(
            aps["content-state"] as? [String: String]
                == ["status": "driver_en_route", "etaMinutes": "12", "driverName": "Sam"])
        #expect(payload.count == 1, "a Live Activity push has only aps")
    }

    @Test(arguments: ["unregistered", "expired_token", "bad_device_token"])
    func aGoneDeviceIsDeactivatedAndGetsNothingMore(example: String) async throws {
        let devices = MemoryPushDevices()
        let transport = ScriptedAPNs([try APNsFixture.response(example)])
        let sender = try await sender(transport, devices: devices)
        let error = await #expect(throws: ConciergeError.self) {
            try await sender.sendPush(
                to: APNsFixture.sandboxDevice, title: "Leave now", body: "Leave now.", data: [:], deliveryKey: "k1")
        }
        #expect(error?.category == .invalidInput, "the outbox does not retry")
        #expect(error?.code == "apns_device_unregistered")
        let recorded = try JSONSerialization.jsonObject(with: try APNsFixture.response(example).body)
        #expect(
            await devices.deactivated[APNsFixture.sandboxDevice] == (recorded as? [String: Any])?["reason"] as? String)

        // The next notice is not even sent.
        let next = await #expect(throws: ConciergeError.self) {
            try await sender.sendPush(
                to: APNsFixture.sandboxDevice, title: "Leave now", body: "Leave now.", data: [:], deliveryKey: "k2")
        }
        #expect(next?.code == "apns_device_inactive")
        #expect(await transport.requests.count == 1)
    }

    @Test(arguments: ["too_many_requests", "too_many_provider_token_updates", "service_unavailable"])
    func busyOrDownIsRetriedLaterByTheOutbox(example: String) async throws {
        let devices = MemoryPushDevices()
        let sender = try await sender(ScriptedAPNs([try APNsFixture.response(example)]), devices: devices)
        let error = await #expect(throws: ConciergeError.self) {
            try await sender.sendPush(
                to: APNsFixture.sandboxDevice, title: "t", body: "b", data: [:], deliveryKey: nil)
        }
        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
        #expect(await devices.deactivated.isEmpty)
    }

    @Test func noAnswerIsRetriedLaterToo() async throws {
        let sender = try await sender(ScriptedAPNs(failing: .timedOut))
        let error = await #expect(throws: ConciergeError.self) {
            try await sender.sendPush(to: APNsFixture.sandboxDevice, title: "t", body: "b", data: [:], deliveryKey: nil)
        }
        #expect(error?.category == .unavailable(retryAfterSeconds: nil))
    }

    @Test(arguments: ["device_token_not_for_topic", "payload_too_large"])
    func anotherRefusalFailsForGoodWithAppleReasonAndKeepsTheDevice(example: String) async throws {
        let devices = MemoryPushDevices()
        let sender = try await sender(ScriptedAPNs([try APNsFixture.response(example)]), devices: devices)
        let error = await #expect(throws: ConciergeError.self) {
            try await sender.sendPush(to: APNsFixture.sandboxDevice, title: "t", body: "b", data: [:], deliveryKey: nil)
        }
        #expect(error?.category == .invalidInput)
        #expect(error?.code == "apns_rejected")
        let recorded = try JSONSerialization.jsonObject(with: try APNsFixture.response(example).body)
        let reason = try #require((recorded as? [String: Any])?["reason"] as? String)
        #expect(error?.message.contains(reason) == true, "\(String(describing: error?.message))")
        #expect(await devices.deactivated.isEmpty)
    }

    @Test(arguments: ["expired_provider_token", "invalid_provider_token"])
    func aRejectedProviderTokenIsReplacedOnceAndTheNoticeResent(example: String) async throws {
        let transport = ScriptedAPNs([try APNsFixture.response(example), try APNsFixture.response("alert_ok")])
        try await sender(transport).sendPush(
            to: APNsFixture.sandboxDevice, title: "t", body: "b", data: [:], deliveryKey: "k")
        let requests = await transport.requests
        #expect(requests.count == 2)
        #expect(requests[0].header("authorization") != requests[1].header("authorization"))
        #expect(requests[0].header("apns-id") == requests[1].header("apns-id"))
        #expect(
            try DecodedJWT(String(requests[1].header("authorization")?.dropFirst(7) ?? "")).isSigned(by: key.publicKey))
    }

    @Test func aProviderTokenRejectedTwiceIsAConfigurationErrorNotALoop() async throws {
        let transport = ScriptedAPNs([
            try APNsFixture.response("invalid_provider_token"), try APNsFixture.response("invalid_provider_token"),
        ])
        let sender = try await sender(transport)
        let error = await #expect(throws: ConciergeError.self) {
            try await sender.sendPush(to: APNsFixture.sandboxDevice, title: "t", body: "b", data: [:], deliveryKey: nil)
        }
        #expect(error?.code == "apns_rejected")
        #expect(await transport.requests.count == 2)
    }

    @Test func anOversizedPayloadIsNotSent() async throws {
        let transport = ScriptedAPNs([])
        let sender = try await sender(transport)
        let error = await #expect(throws: ConciergeError.self) {
            try await sender.sendPush(
                to: APNsFixture.sandboxDevice, title: "t", body: String(repeating: "x", count: 5000), data: [:],
                deliveryKey: nil)
        }
        #expect(error?.code == "apns_payload_too_large" && error?.category == .invalidInput)
        #expect(await transport.requests.isEmpty)
    }
}
