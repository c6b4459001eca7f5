/// The one test of whether an email address can be written into a message's headers and
/// delivered: the profile check and the senders use the same one (security review finding 28:
/// an address one accepted and the other refused got no confirmation, silently).
public enum EmailAddress {
    public static func isPlausible(_ address: String) -> Bool {
        guard !address.isEmpty, address.utf8.count <= 254 else { return false }
        let forbidden: Set<Unicode.Scalar> = [",", ";", "<", ">", "(", ")", "\"", "[", "]", "\\", ":"]
        for scalar in address.unicodeScalars {
            if scalar.value <= 0x20 || scalar.value == 0x7F || forbidden.contains(scalar) { return false }
        }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[0].utf8.count <= 64 else { return false }
        let domain = parts[1]
        return !domain.hasPrefix(".") && !domain.hasSuffix(".") && !domain.contains("..")
    }
}

extension StringProtocol {
    /// Whether the text holds a control character (C0, DEL or C1): free text on a booking or a
    /// profile never needs one, and a NUL cuts text short in C libraries (security review
    /// finding 14).
    public var containsControlCharacter: Bool {
        unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}
