public import AsyncHTTPClient
public import ConciergeCore
import Crypto
import Foundation

/// Apple Push Notification service with token-based auth: `POST /3/device/{token}` over HTTP/2
/// to the device's environment (`api.push.apple.com` or `api.sandbox.push.apple.com`), with
/// the shared provider token, through one HTTP client whose connections stay open (Apple treats
/// reconnecting per notification as abuse).
///
/// What an answer means for the outbox that calls it:
/// - `410` (`Unregistered`, `ExpiredToken`) and `400 BadDeviceToken`: the device is deactivated
///   and the message fails for good.
/// - `403 ExpiredProviderToken` / `InvalidProviderToken`: a new provider token, and one retry.
/// - `429` and `5xx` (and no answer at all): `unavailable`, so the outbox retries with backoff.
/// - any other `4xx`: fails for good, with Apple's reason in the outbox's error.
///
/// Each attempt of one outbox message carries the same `apns-id` (from its delivery key) and
/// its `apns-collapse-id`, so a repeat after a crash replaces the first on the device.
public struct APNsPushSender: PushSender {
    public static let productionURL = "https://api.push.apple.com"
    public static let sandboxURL = "https://api.sandbox.push.apple.com"

    /// One client for every APNs request of the process: HTTP/2 (negotiated by ALPN) and idle
    /// connections kept half an hour, so notices go out over open connections.
    public static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.httpVersion = .automatic
        configuration.connectionPool = .init(idleTimeout: .minutes(30))
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    private let token: APNsProviderToken
    private let topic: String
    private let devices: any PushDeviceDirectory
    private let transport: any ProviderHTTPTransport
    private let sandboxURL: String
    private let productionURL: String
    private let clock: any TimeSource
    private let timeout: Duration

    /// - Parameters:
    ///   - topic: the app's bundle id (`apns-topic`).
    ///   - sandboxURL, productionURL: Apple's hosts; tests point them at a local stub.
    public init(
        token: APNsProviderToken, topic: String, devices: any PushDeviceDirectory, clock: any TimeSource,
        transport: any ProviderHTTPTransport = AsyncHTTPClientTransport(client: APNsPushSender.sharedClient),
        sandboxURL: String = APNsPushSender.sandboxURL, productionURL: String = APNsPushSender.productionURL,
        timeout: Duration = .seconds(10)
    ) {
        self.token = token
        self.topic = topic
        self.devices = devices
        self.transport = transport
        self.sandboxURL = sandboxURL
        self.productionURL = productionURL
        self.clock = clock
        self.timeout = timeout
    }

    public func sendPush(
        to deviceToken: String, title: String, body: String, data: [String: String], deliveryKey: String?
    ) async throws {
        let device = String(deviceToken.prefix(8)) + "…"
        guard let environment = try await devices.pushEnvironment(ofDevice: deviceToken) else {
            throw ConciergeError(
                .invalidInput, code: "apns_device_inactive",
                message: "Device \(device) is not registered or was deactivated; nothing was sent.")
        }
        let notification = try APNsNotification(title: title, body: body, data: data, topic: topic, now: clock.now)
        let url = (environment == "production" ? productionURL : sandboxURL) + "/3/device/" + deviceToken
        let apnsID = deliveryKey.map(Self.apnsID(for:))
        var jwt = try await token.token()
        var answer = try await post(notification, url: url, jwt: jwt, apnsID: apnsID)
        if case .newProviderToken = answer.outcome {
            jwt = try await token.replacing(jwt)
            answer = try await post(notification, url: url, jwt: jwt, apnsID: apnsID)
        }
        switch answer.outcome {
        case .sent:
            return
        case .deactivate:
            try await devices.deactivateDevice(token: deviceToken, reason: answer.reason, at: clock.now)
            throw ConciergeError(
                .invalidInput, code: "apns_device_unregistered",
                message:
                    "APNs answered \(answer.status) \(answer.reason) for device \(device); it gets no more notices.")
        case .retryLater:
            throw ConciergeError(
                .unavailable(retryAfterSeconds: nil), code: "apns_unavailable",
                message: "APNs answered \(answer.status) \(answer.reason); the outbox retries later.")
        case .newProviderToken, .rejected:
            throw ConciergeError(
                .invalidInput, code: "apns_rejected",
                message: "APNs answered \(answer.status) \(answer.reason) for device \(device).")
        }
    }

    /// What an APNs answer asks of the sender.
    enum Outcome: Equatable {
        case sent
        case deactivate
        case newProviderToken
        case retryLater
        case rejected
    }

    struct Answer {
        let status: Int
        let reason: String
        let outcome: Outcome
    }

    static func outcome(status: Int, reason: String) -> Outcome {
        switch (status, reason) {
        case (200...299, _): .sent
        case (410, _), (400, "BadDeviceToken"): .deactivate
        case (403, "ExpiredProviderToken"), (403, "InvalidProviderToken"): .newProviderToken
        // Apple closed an idle connection: a new one will do.
        case (400, "IdleTimeout"): .retryLater
        case (429, _), (500...599, _): .retryLater
        default: .rejected
        }
    }

    private func post(_ notification: APNsNotification, url: String, jwt: String, apnsID: String?) async throws
        -> Answer
    {
        let request = ProviderHTTPRequest(
            method: "POST", url: url, headers: notification.headers(providerToken: jwt, apnsID: apnsID),
            body: notification.payload)
        let response: ProviderHTTPResponse
        do {
            response = try await transport.send(request, timeout: timeout)
        } catch let error as ProviderTransportError {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: nil), code: "apns_unavailable",
                message: "APNs could not be reached (\(error)); the outbox retries later.")
        }
        let reason = (try? JSONDecoder().decode(Failure.self, from: response.body))?.reason ?? ""
        return Answer(
            status: response.status, reason: reason, outcome: Self.outcome(status: response.status, reason: reason))
    }

    private struct Failure: Decodable {
        let reason: String
    }

    /// A canonical lowercase UUID from the delivery key: the same on every attempt of a message.
    static func apnsID(for deliveryKey: String) -> String {
        var bytes = Array(SHA256.hash(data: Data(deliveryKey.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: custom
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return uuid.uuidString.lowercased()
    }
}
