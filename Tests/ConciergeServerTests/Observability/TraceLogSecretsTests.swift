import ConciergeModels
import ConciergeTestSupport
import Foundation
import Testing

/// The real binary with `CONCIERGE_LOG_FORMAT=json` at the most verbose level, through an SMS
/// sign-in, an email and password sign-up and sign-in, an admin call and a paid booking: every
/// line is one JSON object, and none holds a code, a password, a token or a configured secret.
@Suite(.serialized) struct TraceLogSecretsTests {
    static let secret = "log-test-secret-" + String(repeating: "s", count: 32)
    static let adminToken = "log-test-admin-" + String(repeating: "a", count: 32)
    static let password = "Correct horse battery 42"

    @Test func noCodePasswordTokenOrSecretReachesTheLogs() async throws {
        let server = try TraceServeProcess(environment: [
            "CONCIERGE_LOG_FORMAT": "json", "CONCIERGE_LOG_LEVEL": "trace", "CONCIERGE_SECRET": Self.secret,
            "CONCIERGE_ADMIN_TOKEN": Self.adminToken, "CONCIERGE_BCRYPT_COST": "4",
        ])
        try await server.start()
        defer { server.stop() }
        var secrets = [Self.secret, Self.adminToken, Self.password]

        // Sign-in by SMS code, as the app does it: the code is read from the dev outbox.
        let phone = "+41791234567"
        #expect(try await server.send("POST", "/rides/sms-code-send", json: #"{"phone": "\#(phone)"}"#).status == 200)
        let outbox = try await server.get("/dev/outbox").json["messages"] as? [[String: Any]] ?? []
        let body = try #require(outbox.last?["body"] as? String)
        let code = try #require(RecordingSMSSender.code(in: body))
        secrets.append(code)
        let verified = try await server.send(
            "POST", "/rides/sms-code-verify", json: #"{"phone": "\#(phone)", "code": "\#(code)"}"#)
        #expect(verified.status == 200)
        let session = try JSONDecoder().decode(SMSCodeVerifyResponse.self, from: Data(verified.body.utf8))
        secrets.append(session.sessionToken)

        // A paid booking in dev mode (the sandbox's checkout page).
        _ = try await server.send(
            "PATCH", "/rides/me", json: #"{"email": "anna@example.ch"}"#, token: session.sessionToken)
        let booking = BookingRequest(
            pickup: BookingLocation(placeId: "gz_iata_ZRH", description: "Pickup"),
            destination: BookingLocation(placeId: "gz_geo_2657896", description: "Destination"),
            dateTime: WireDate.string(from: Date().addingTimeInterval(3 * 86_400)), passengers: nil,
            vehicleClass: "business", flightNumber: nil)
        let booked = try await server.send(
            "POST", "/rides/app-book", json: String(decoding: try JSONEncoder().encode(booking), as: UTF8.self),
            token: session.sessionToken)
        #expect(booked.status == 200)
        let checkout = try #require(booked.json["checkoutUrl"] as? String)
        let checkoutPath = try #require(URL(string: checkout)?.path)
        // 303 to the return page, which the client follows.
        let paid = try await server.send("POST", checkoutPath, form: "outcome=paid")
        #expect(paid.status == 200 && paid.body.contains("confirmed"), "\(paid.status) \(paid.body.prefix(300))")

        // Email and password: sign-up, then sign-in; every token answered is a secret too.
        let signedUp = try await server.send(
            "POST", "/account/sign-up", json: #"{"email": "bea@example.ch", "password": "\#(Self.password)"}"#)
        #expect((200..<300).contains(signedUp.status))
        let signedIn = try await server.send(
            "POST", "/account/sign-in", json: #"{"login": "bea@example.ch", "password": "\#(Self.password)"}"#)
        #expect(signedIn.status == 200)
        secrets += Self.tokens(in: signedUp.json) + Self.tokens(in: signedIn.json)
        let wrong = try await server.send(
            "POST", "/account/sign-in", json: #"{"login": "bea@example.ch", "password": "not \#(Self.password)"}"#)
        #expect(wrong.status == 401)

        // The operator's token on an admin call.
        #expect(
            try await server.get("/admin/bookings", headers: [("Authorization", "Bearer \(Self.adminToken)")]).status
                == 200)

        server.stop()
        let log = server.log
        let lines = log.split(separator: "\n")
        #expect(lines.count > 10)
        for line in lines {
            let parsed = try #require(JSONLogLine(line), "not a JSON object: \(line)")
            #expect(parsed.string("level") != nil && parsed.string("message") != nil && parsed.string("label") != nil)
            #expect(parsed.string("time").map(Self.isISO8601UTCWithMilliseconds) == true, "\(line)")
        }
        #expect(lines.contains { JSONLogLine($0)?.string("request_id") != nil })
        #expect(log.contains("/rides/sms-code-verify"))
        for secret in secrets where secret.count >= 6 {
            #expect(!log.contains(secret), "a secret of \(secret.count) characters is in the log")
        }
    }

    /// Every string under a key that names a token (`sessionToken`, `accessToken`, …), at any depth.
    static func tokens(in object: Any) -> [String] {
        if let dictionary = object as? [String: Any] {
            return dictionary.flatMap { key, value in
                if key.lowercased().contains("token"), let token = value as? String { return [token] }
                return tokens(in: value)
            }
        }
        if let array = object as? [Any] { return array.flatMap(tokens(in:)) }
        return []
    }

    /// `2026-01-22T13:00:00.123Z`.
    static func isISO8601UTCWithMilliseconds(_ text: String) -> Bool {
        text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil
    }
}
