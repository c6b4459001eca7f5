import Foundation

/// A phone number in E.164 form (`+41791234567`).
///
/// People type numbers with spaces, dashes, dots, parentheses, a `00` international prefix, or
/// the Swiss/German habit of a bracketed trunk zero (`+41 (0)79 …`); all of these are accepted.
/// A number without a country code is rejected rather than guessed, because guessing the country
/// would send a code to the wrong person.
public struct PhoneNumber: Sendable, Hashable, CustomStringConvertible {
    public let e164: String

    public var description: String { e164 }

    public init(normalizing raw: String) throws(ConciergeError) {
        var text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        // Drop a bracketed trunk prefix "(0)" before the other brackets disappear.
        text = text.replacingOccurrences(of: "(0)", with: "")
        let separators: Set<Character> = [" ", "-", ".", "(", ")", "/", "\u{00A0}"]
        text.removeAll { separators.contains($0) }

        let digits: Substring
        if text.hasPrefix("+") {
            digits = text.dropFirst()
        } else if text.hasPrefix("00") {
            digits = text.dropFirst(2)
        } else {
            throw Self.invalid(raw)
        }
        // E.164: a country code that does not start with 0, at most 15 digits in all; the
        // shortest real numbers (small island states) have 7.
        guard digits.count >= 7, digits.count <= 15,
            digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            digits.first != "0"
        else {
            throw Self.invalid(raw)
        }
        self.e164 = "+" + digits
    }

    /// For values that were normalised before (read back from storage).
    public init(trustedE164: String) {
        self.e164 = trustedE164
    }

    private static func invalid(_ raw: String) -> ConciergeError {
        ConciergeError(
            .invalidInput, code: "invalid_phone",
            message:
                "'\(raw.prefix(40))' is not a phone number we can send a code to. Enter it in international format with the country code, for example +41 79 123 45 67."
        )
    }
}
