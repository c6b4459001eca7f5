import ConciergeCore
import ConciergeProviders
import Crypto
import Foundation
import Testing

/// The recorded APNs answers (`commute_apns_examples.json`, trimmed from the spec's
/// `apns_examples.json`), a key pair like a `.p8` download, and an in-memory device list.
enum APNsFixture {
    static let keyID = "ABC123DEFG"
    static let teamID = "DEF123GHIJ"
    static let topic = "com.example.concierge"
    /// The recorded requests' device tokens: the first registered for the sandbox.
    static let sandboxDevice = "5f2c1e9a0b7d4c3e8f6a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60"
    static let productionDevice = "7a9e3c1d5b2f4e6a8c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b"
    /// The recorded provider token's `iat`, 2026-09-01T07:50:00Z.
    static let issuedAt = Date(timeIntervalSince1970: 1_788_244_200)

    static func examples() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: try Fixture.data("commute_apns_examples"))
        return try #require(object as? [String: Any])
    }

    static func example(_ name: String) throws -> [String: Any] {
        let list = try #require(try examples()["examples"] as? [[String: Any]])
        return try #require(list.first { $0["name"] as? String == name }, "no example \(name)")
    }

    /// The recorded answer of example `name`, as APNs sends it.
    static func response(_ name: String) throws -> ProviderHTTPResponse {
        let response = try #require(try example(name)["response"] as? [String: Any])
        let headers = (response["headers"] as? [String: String] ?? [:]).map { ($0.key, $0.value) }
        let body = try (response["body"] as? [String: Any]).map { try JSONSerialization.data(withJSONObject: $0) }
        return ProviderHTTPResponse(
            status: try #require(response["status"] as? Int), headers: headers, body: body ?? Data())
    }

    /// A fresh P-256 key: the private half as a `.p8` file holds it (PEM, PKCS#8).
    static func key() -> (pem: String, publicKey: P256.Signing.PublicKey) {
        let key = P256.Signing.PrivateKey()
        return (key.pemRepresentation, key.publicKey)
    }
}

/// Registered devices and the ones APNs made us deactivate.
actor MemoryPushDevices: PushDeviceDirectory {
    private var environments: [String: String]
    private(set) var deactivated: [String: String] = [:]

    init(
        _ environments: [String: String] = [
            APNsFixture.sandboxDevice: "sandbox", APNsFixture.productionDevice: "production",
        ]
    ) {
        self.environments = environments
    }

    func pushEnvironment(ofDevice token: String) async throws -> String? {
        deactivated[token] == nil ? environments[token] : nil
    }

    func deactivateDevice(token: String, reason: String, at date: Date) async throws {
        deactivated[token] = reason
    }
}

/// Answers APNs requests from a script, one answer per request, and keeps the requests.
actor ScriptedAPNs: ProviderHTTPTransport {
    private var answers: [Result<ProviderHTTPResponse, ProviderTransportError>]
    private(set) var requests: [ProviderHTTPRequest] = []

    init(_ answers: [ProviderHTTPResponse]) {
        self.answers = answers.map { .success($0) }
    }

    init(failing error: ProviderTransportError) {
        answers = [.failure(error)]
    }

    func send(_ request: ProviderHTTPRequest, timeout: Duration) async throws -> ProviderHTTPResponse {
        requests.append(request)
        guard !answers.isEmpty else { throw ProviderTransportError.unreachable("no answer scripted") }
        return try answers.removeFirst().get()
    }
}

/// A JWT's parts, decoded without the code under test.
struct DecodedJWT {
    let header: [String: Any]
    let claims: [String: Any]
    let claimsText: String
    let signingInput: String
    let signature: Data

    init(_ jwt: String) throws {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        func bytes(_ text: String) throws -> Data {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            return try #require(Data(base64Encoded: base64))
        }
        header = try #require(try JSONSerialization.jsonObject(with: bytes(parts[0])) as? [String: Any])
        claimsText = String(decoding: try bytes(parts[1]), as: UTF8.self)
        claims = try #require(try JSONSerialization.jsonObject(with: bytes(parts[1])) as? [String: Any])
        signingInput = parts[0] + "." + parts[1]
        signature = try bytes(parts[2])
    }

    func isSigned(by key: P256.Signing.PublicKey) throws -> Bool {
        key.isValidSignature(
            try P256.Signing.ECDSASignature(rawRepresentation: signature), for: Data(signingInput.utf8))
    }
}
