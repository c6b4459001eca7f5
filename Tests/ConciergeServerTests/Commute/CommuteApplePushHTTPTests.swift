import ConciergeCore
import ConciergeModels
import ConciergeProviders
import ConciergeTestSupport
import Crypto
import Foundation
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Commute's notices through Apple Push when the APNS_ settings are given (as variables or
/// `serve` flags, which the configuration folds together): each device gets its notice from its
/// own environment's host, and a device APNs calls `Unregistered` gets nothing more.
@Suite struct CommuteApplePushHTTPTests {
    static let sandboxDevice = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
    static let productionDevice = "b1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"

    /// Answers like APNs: 410 `Unregistered` for the sandbox device, 200 for any other.
    actor APNs: ProviderHTTPTransport {
        private(set) var requests: [ProviderHTTPRequest] = []

        func send(_ request: ProviderHTTPRequest, timeout: Duration) async throws -> ProviderHTTPResponse {
            requests.append(request)
            if request.url.hasSuffix(CommuteApplePushHTTPTests.sandboxDevice) {
                return ProviderHTTPResponse(
                    status: 410, body: Data(#"{"reason":"Unregistered","timestamp":1800000000000}"#.utf8))
            }
            return ProviderHTTPResponse(status: 200, headers: [("apns-id", UUID().uuidString.lowercased())])
        }
    }

    /// The four APNS_ settings with a fresh `.p8` key in a temporary file.
    static func settings() throws -> [String: String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey_\(UUID()).p8")
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: file)
        return [
            "APNS_KEY_FILE": file.path, "APNS_KEY_ID": "ABC123DEFG", "APNS_TEAM_ID": "DEF123GHIJ",
            "APNS_TOPIC": "com.example.commute",
        ]
    }

    @Test(arguments: TestEngine.all)
    func noticesGoToEachDevicesHostAndAnUnregisteredDeviceGetsNoMore(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine, environment: try Self.settings())
        let apns = APNs()
        try await CommuteConfiguration.$override.withValue(.init(apnsTransport: apns)) {
            try await app.runWithWorker { client, worker in
                let token = try await client.commuteToken()
                for (device, environment) in [(Self.sandboxDevice, "sandbox"), (Self.productionDevice, "production")] {
                    let registered = try await client.send(
                        .post, "/commute/devices",
                        json: #"{"platform": "ios", "token": "\#(device)", "environment": "\#(environment)"}"#,
                        token: token)
                    #expect(registered.status == .created)
                }
                let trip = try await client.createTrip(token: token)
                let plan = try await client.send(.get, "/commute/trips/\(trip.id)/recommendation", token: token)
                    .decode(LeaveTimeRecommendation.self)
                let leaveAt = try #require(WireDate.date(from: plan.leaveAt))

                app.clock.set(leaveAt.addingTimeInterval(-10 * 60))
                await worker.tick()
                let soon = await apns.requests
                #expect(
                    soon.map(\.url).sorted() == [
                        "https://api.push.apple.com/3/device/\(Self.productionDevice)",
                        "https://api.sandbox.push.apple.com/3/device/\(Self.sandboxDevice)",
                    ])
                let first = try #require(soon.first)
                #expect(first.header("apns-topic") == "com.example.commute")
                #expect(first.header("apns-push-type") == "alert")
                #expect(first.header("apns-collapse-id")?.hasPrefix(trip.id + ":") == true)
                #expect(first.header("apns-expiration") == String(Int(leaveAt.timeIntervalSince1970)))
                #expect(first.header("authorization")?.hasPrefix("bearer ey") == true)
                let payload = try JSONSerialization.jsonObject(with: first.body ?? Data()) as? [String: Any]
                #expect(
                    (payload?["aps"] as? [String: Any])?["alert"] as? [String: String] == [
                        "title": "Leave in 10 minutes",
                        "body": try #require(
                            try await client.send(.get, "/commute/notifications", token: token)
                                .decode(CommuteNotificationList.self).notifications.first?.body),
                    ])
                #expect(payload?["tripId"] as? String == trip.id)

                // "Leave now" goes only to the device APNs still knows.
                app.clock.set(leaveAt)
                await worker.tick()
                let now = await apns.requests.dropFirst(2)
                #expect(now.map(\.url) == ["https://api.push.apple.com/3/device/\(Self.productionDevice)"])
                #expect(now.first?.header("authorization") == first.header("authorization"), "one provider token")
                let kinds = try await client.send(.get, "/commute/notifications", token: token)
                    .decode(CommuteNotificationList.self).notifications.map(\.kind)
                #expect(kinds == ["leave_now", "leave_soon"])

            }
        }
    }

    @Test func incompleteOrBrokenApplePushSettingsStopTheStartNamingTheVariable() async throws {
        var settings = try Self.settings()
        settings["APNS_TOPIC"] = nil
        #expect(throws: ConfigurationError.self) { try CommuteConfiguration(environment: settings) }
        do {
            _ = try CommuteConfiguration(environment: settings)
        } catch {
            #expect(error.description.contains("APNS_TOPIC"))
        }
        var badID = try Self.settings()
        badID["APNS_KEY_ID"] = "abc"
        #expect(throws: ConfigurationError.self) { try CommuteConfiguration(environment: badID) }

        // A file that is not a P-256 key fails when the server starts, not at the first notice.
        var notAKey = try Self.settings()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey_\(UUID()).p8")
        try Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8).write(to: file)
        notAKey["APNS_KEY_FILE"] = file.path
        let app = try await TestApp.make(engine: .sqlite, environment: notAKey)
        await #expect(throws: ConfigurationError.self) { try await app.run { _ in } }

        // None of them: the dev outbox stays the push channel.
        #expect(try CommuteConfiguration(environment: [:]).apns == nil)
    }
}
