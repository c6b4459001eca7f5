import ConciergeCore
import Foundation
import Testing

/// The encodings behind ids, tokens and hashes.
@Suite struct EncodingTests {
    @Test func hexIsTwoLowercaseDigitsPerByte() {
        #expect([UInt8]().lowercaseHex == "")
        #expect([0x00, 0x0f, 0xa5, 0xff].lowercaseHex == "000fa5ff")
        #expect(
            Array(0...255 as ClosedRange<UInt8>).lowercaseHex == (0...255).map { String(format: "%02x", $0) }.joined())
    }

    @Test func base64URLUsesTheURLSafeAlphabetWithoutPadding() {
        #expect(Data([0xfb, 0xff]).base64URLEncodedString() == "-_8")
        #expect(Data("hello".utf8).base64URLEncodedString() == "aGVsbG8")
        #expect(Data().base64URLEncodedString() == "")
    }

    @Test func randomValuesHaveTheirLengthAndAlphabet() {
        #expect(Randomness.bytes(0).isEmpty)
        #expect(Randomness.bytes(13).count == 13)
        let identifier = Randomness.identifier(prefix: "bkg")
        #expect(identifier.hasPrefix("bkg_") && identifier.count == 4 + 32)
        #expect(identifier.dropFirst(4).allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(Randomness.token(byteCount: 32).count == 43)
        #expect(Set((0..<50).map { _ in Randomness.identifier(prefix: "x") }).count == 50)
    }
}

@Suite struct TrimmingTests {
    @Test func trimmingRemovesOnlyOuterWhitespaceAndNewlines() {
        #expect("  a b \n".trimmed == "a b")
        #expect("\t\n ".trimmed == "")
        #expect("".trimmed == "")
        #expect("gz_1".trimmed == "gz_1")
        #expect(" Zürich\u{00A0}".trimmed == "Zürich")
    }
}
