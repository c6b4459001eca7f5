import Foundation

/// Reads one field of an `application/x-www-form-urlencoded` body. Other fields — repeated,
/// oddly named or not decodable — are ignored, so a form that carries the field is never
/// refused for what else it carries.
enum FormFields {
    /// The first value of `name` (`+` is a space, `%XX` an escaped byte); nil when absent.
    static func first(_ name: String, in body: String) -> String? {
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard decode(parts[0]) == name else { continue }
            return parts.count == 2 ? decode(parts[1]) : ""
        }
        return nil
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
