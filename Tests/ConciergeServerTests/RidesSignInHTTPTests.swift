import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The sign-in contract over HTTP, as the rides app uses it.
@Suite struct RidesSignInHTTPTests {
    @Test(arguments: TestEngine.all)
    func signingInWithTheCodeFromTheOutboxGivesASessionThatReadsTheProfile(engine: TestEngine) async throws {
        let app = try await TestApp.make(engine: engine)
        try await app.run { client in
            let sent = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "0041 79 123 45 67"}"#)
            #expect(sent.status == .ok)
            #expect(
                try sent.decode(SMSCodeSendResponse.self)
                    == SMSCodeSendResponse(expiresInSeconds: 600, resendAfterSeconds: 30))

            let code = try await client.latestCode()
            let verified = try await client.send(
                .post, "/rides/sms-code-verify", json: #"{"phone": "+41791234567", "code": "\#(code)"}"#)
            #expect(verified.status == .ok)
            let session = try verified.decode(SMSCodeVerifyResponse.self)
            #expect(session.customer.phone == "+41791234567")
            #expect(session.customer.name == nil)
            #expect(session.expiresAt.hasSuffix(".000Z"))
            // `name` and `email` are present as null, as the contract shows.
            #expect(String(buffer: verified.body).contains(#""name":null"#))

            let me = try await client.send(.get, "/rides/me", token: session.sessionToken)
            #expect(me.status == .ok)
            #expect(try me.decode(CustomerProfileResponse.self).customer == session.customer)
        }
    }

    @Test func theSendAnswerIsTheSameForKnownAndUnknownPhones() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            _ = try await client.signIn(phone: "+41791111111")
            let known = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41792222222"}"#)
            app.clock.advance(by: 31)
            let unknown = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41791111111"}"#)
            #expect(known.status == unknown.status)
            #expect(known.body == unknown.body)
        }
    }

    @Test(arguments: ["079 123 45 67", "+41 79 abc", "12", "", "+0041791234567"])
    func aPhoneThatIsNotInternationalIs400InvalidPhone(phone: String) async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            let response = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "\#(phone)"}"#)
            #expect(response.status == .badRequest)
            #expect(response.errorBody?.code == "invalid_phone")
            #expect(response.errorBody?.error.contains("+41 79 123 45 67") == true)
        }
    }

    @Test func wrongCodesAre400UntilTheFifthBurnsTheCodeWith429() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            _ = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41791234567"}"#)
            let code = try await client.latestCode()
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 1...4 {
                let response = try await client.send(
                    .post, "/rides/sms-code-verify", json: #"{"phone": "+41791234567", "code": "\#(wrong)"}"#)
                #expect(response.status == .badRequest)
                #expect(response.errorBody?.code == "invalid_code")
            }
            for guess in [wrong, code] {
                let response = try await client.send(
                    .post, "/rides/sms-code-verify", json: #"{"phone": "+41791234567", "code": "\#(guess)"}"#)
                #expect(response.status == .tooManyRequests)
                #expect(response.errorBody?.code == "too_many_attempts")
            }
        }
    }

    @Test func anExpiredCodeIs400CodeExpired() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            _ = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41791234567"}"#)
            let code = try await client.latestCode()
            app.clock.advance(by: 601)
            let response = try await client.send(
                .post, "/rides/sms-code-verify", json: #"{"phone": "+41791234567", "code": "\#(code)"}"#)
            #expect(response.status == .badRequest)
            #expect(response.errorBody?.code == "code_expired")
        }
    }

    @Test func aResendWithinThirtySecondsIs429WithRetryAfter() async throws {
        let app = try await TestApp.make(engine: .sqlite)
        try await app.run { client in
            _ = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41791234567"}"#)
            app.clock.advance(by: 10)
            let response = try await client.send(.post, "/rides/sms-code-send", json: #"{"phone": "+41791234567"}"#)
            #expect(response.status == .tooManyRequests)
            #expect(response.headers[.retryAfter] == "20")
            #expect(response.errorBody?.code == "resend_too_soon")
        }
    }

    @Test func perIPLimitsUseTheForwardedAddressOnlyBehindATrustedProxy() async throws {
        let app = try await TestApp.make(
            engine: .sqlite, environment: ["CONCIERGE_TRUST_PROXY": "true", "CONCIERGE_OTP_SENDS_PER_IP_HOUR": "2"])
        try await app.run { client in
            let first: HTTPFields = [.init("X-Forwarded-For")!: "10.0.0.1, 198.51.100.7"]
            for phone in ["+41790000001", "+41790000002"] {
                let ok = try await client.send(
                    .post, "/rides/sms-code-send", json: #"{"phone": "\#(phone)"}"#, headers: first)
                #expect(ok.status == .ok)
            }
            let limited = try await client.send(
                .post, "/rides/sms-code-send", json: #"{"phone": "+41790000003"}"#, headers: first)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorBody?.code == "rate_limited")
            #expect(Int(limited.headers[.retryAfter] ?? "") == 3600)
            let other = try await client.send(
                .post, "/rides/sms-code-send", json: #"{"phone": "+41790000003"}"#,
                headers: [.init("X-Forwarded-For")!: "203.0.113.9"])
            #expect(other.status == .ok)
        }
    }
}
