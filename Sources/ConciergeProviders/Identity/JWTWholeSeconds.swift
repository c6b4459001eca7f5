import Foundation

extension Date {
    /// This time cut to the whole second before it, for a JWT's `iat`, `nbf` and `exp`. jwt-kit
    /// writes a `Date` as seconds with a fraction (`1795759567.3567882`); RFC 7519 allows that,
    /// but client libraries that read NumericDate as an integer fail on it.
    var jwtWholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
