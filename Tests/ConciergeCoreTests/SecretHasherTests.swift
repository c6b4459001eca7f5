import ConciergeCore
import Testing

@Suite struct SecretHasherTests {
    @Test func hashesDependOnKeyPurposeAndValue() {
        let hasher = SecretHasher(secret: "key-one")
        let code = hasher.hash("123456", purpose: "sms-code")
        #expect(code.count == 64)
        #expect(code == hasher.hash("123456", purpose: "sms-code"))
        #expect(code != hasher.hash("123457", purpose: "sms-code"))
        #expect(code != hasher.hash("123456", purpose: "session"))
        #expect(code != SecretHasher(secret: "key-two").hash("123456", purpose: "sms-code"))
    }

    @Test func constantTimeComparisonAgreesWithEquality() {
        #expect(SecretHasher.constantTimeEquals("abc", "abc"))
        #expect(!SecretHasher.constantTimeEquals("abc", "abd"))
        #expect(!SecretHasher.constantTimeEquals("abc", "abcd"))
        #expect(!SecretHasher.constantTimeEquals("", "a"))
        #expect(SecretHasher.constantTimeEquals("", ""))
    }

    /// Security review finding 17: the old loop kept only the low 8 bits of the length
    /// difference, so a secret followed by 256 NUL bytes compared equal to the secret.
    @Test func lengthsThatDifferByAMultipleOf256NeverCompareEqual() {
        let secret = "0123456789abcdef0123456789abcdef"
        #expect(!SecretHasher.constantTimeEquals(secret, secret + String(repeating: "\u{0}", count: 256)))
        #expect(!SecretHasher.constantTimeEquals("", String(repeating: "\u{0}", count: 512)))
    }

    @Test func tokensCarryTwoHundredFiftySixBitsAndCodesSixDigits() {
        let token = Randomness.token(byteCount: 32)
        #expect(token.count == 43)
        #expect(!token.contains("+") && !token.contains("/") && !token.contains("="))
        #expect(Set((0..<50).map { _ in Randomness.token() }).count == 50)
        let code = Randomness.digits(6)
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
    }
}
