import Foundation

/// The API key the Google Maps Platform adapters (Places API (New), Routes API) send in the
/// `X-Goog-Api-Key` header.
///
/// The type never prints its contents: `description`, `debugDescription` and its reflection
/// are redacted, so interpolating it into a log line or an error cannot leak the key.
public struct GoogleMapsKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public let value: String

    /// Surrounding whitespace and newlines are dropped: keys are usually pasted into an
    /// environment variable or read from a secret file, and a trailing newline there would make
    /// every call fail with "API key not valid".
    public init(_ value: String) {
        self.value = value.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public var description: String { "GoogleMapsKey(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension GoogleMapsKey {
    /// A JSON POST with this key and a response field mask, the shape of autocomplete and
    /// computeRoutes.
    func jsonPOST(url: String, fieldMask: String, body: Data) -> ProviderHTTPRequest {
        ProviderHTTPRequest(
            method: "POST",
            url: url,
            headers: [
                ("Content-Type", "application/json"),
                ("Accept", "application/json"),
                ("X-Goog-Api-Key", value),
                ("X-Goog-FieldMask", fieldMask),
            ],
            body: body
        )
    }

    /// A GET with this key and a response field mask, the shape of Place Details.
    func get(url: String, fieldMask: String) -> ProviderHTTPRequest {
        ProviderHTTPRequest(
            method: "GET",
            url: url,
            headers: [
                ("Accept", "application/json"),
                ("X-Goog-Api-Key", value),
                ("X-Goog-FieldMask", fieldMask),
            ]
        )
    }
}
