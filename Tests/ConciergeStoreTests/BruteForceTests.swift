import ConciergeCore
import ConciergeTestSupport
import Foundation
import Testing

/// Reliability: 10,000 wrong guesses spread over phones and networks get nowhere and never
/// exceed the limits.
@Suite struct BruteForceTests {
    @Test func tenThousandWrongGuessesYieldNoSessionAndStayWithinTheLimits() async throws {
        let fixture = try await SignInFixture(engine: .sqlite)
        let phones = (0..<40).map { "+4179200\(String(format: "%04d", $0))" }
        let networks = (0..<50).map { "198.51.100.\($0)" }
        var codes: [String: String] = [:]
        for (index, phone) in phones.enumerated() {
            codes[phone] = try await fixture.sendCode(to: phone, ip: "203.0.113.\(index)")
        }

        var outcomes: [String: Int] = [:]
        var wrongAccepted: [String: Int] = [:]  // guesses that were checked against a code, per phone
        var perNetwork: [String: Int] = [:]
        for attempt in 0..<10_000 {
            let phone = phones[attempt % phones.count]
            let network = networks[(attempt / 7) % networks.count]
            // Every guess is wrong by construction: the real code is skipped.
            var guess = String(format: "%06d", (attempt * 7919) % 1_000_000)
            if guess == codes[phone] { guess = String(format: "%06d", (Int(guess)! + 1) % 1_000_000) }
            do {
                _ = try await fixture.service.verifyCode(phone: phone, code: guess, clientIP: network)
                Issue.record("a wrong guess signed in")
            } catch let error as ConciergeError {
                outcomes[error.code, default: 0] += 1
                if error.code == "invalid_code"
                    || (error.code == "too_many_attempts" && wrongAccepted[phone, default: 0] < 5)
                {
                    wrongAccepted[phone, default: 0] += 1
                }
                if error.code != "rate_limited" { perNetwork[network, default: 0] += 1 }
            }
        }
        // No session was ever created.
        #expect(try await fixture.database.query("SELECT * FROM sessions").isEmpty)
        // Each code was checked at most five times, then burned.
        #expect(wrongAccepted.values.allSatisfy { $0 <= 5 })
        #expect(outcomes["invalid_code", default: 0] <= phones.count * 4)
        // No network got past its 120 checks in the hour.
        #expect(perNetwork.values.allSatisfy { $0 <= 120 })
        #expect(outcomes["rate_limited", default: 0] >= 10_000 - networks.count * 120)
        try await fixture.close()
    }
}
