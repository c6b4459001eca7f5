import ConciergeProviders
import Foundation
import Testing

/// bcrypt as accounts use it: right and wrong passwords, and the default cost's price on this
/// machine (the figure in docs/api/platform.md and in `BcryptPasswordHasher`'s comment comes from here).
@Suite struct BcryptPasswordHasherTests {
    @Test func aHashChecksTheRightPasswordOnly() async throws {
        let hasher = BcryptPasswordHasher(cost: 4)
        let hash = try await hasher.hash("correct horse battery")
        #expect(hash.hasPrefix("$2b$04$"))
        #expect(try await hasher.verify("correct horse battery", against: hash))
        #expect(try await hasher.verify("correct horse batterY", against: hash) == false)
        let decoy = try await hasher.decoyHash()
        #expect(decoy.hasPrefix("$2b$04$"))
        #expect(try await hasher.verify("correct horse battery", against: decoy) == false)
        #expect(try await hasher.decoyHash() == decoy)  // made once, then kept
        #expect(try await hasher.hash("correct horse battery") != hash)  // salted
    }

    @Test func theDefaultCostTakesAtLeastFiftyMilliseconds() async throws {
        let hasher = BcryptPasswordHasher()
        var durations: [Duration] = []
        for _ in 0..<3 {
            let start = ContinuousClock.now
            _ = try await hasher.hash("correct horse battery")
            durations.append(ContinuousClock.now - start)
        }
        let median = durations.sorted()[1]
        print("bcrypt cost \(BcryptPasswordHasher.defaultCost): median \(median) per hash")
        #expect(median >= .milliseconds(50))
    }
}
