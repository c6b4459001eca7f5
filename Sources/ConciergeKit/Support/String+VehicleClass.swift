import Foundation

extension String {
    /// The API's vehicle class ("business", "first" or "xl") for a vehicle's display name.
    ///
    /// Case, surrounding spaces, repeated spaces, hyphens and underscores do not matter:
    /// "Business", "business class" and "Business Class" are "business"; "First" and
    /// "First Class" are "first"; "XL", "Van" and "XL Van" are "xl". Anything else comes back
    /// trimmed and lowercased, so a wire value passes through unchanged and the server can
    /// reject an unknown class.
    ///
    /// ```swift
    /// "Business Class".toVehicleClass   // "business"
    /// "XL Van".toVehicleClass           // "xl"
    /// " Limousine ".toVehicleClass      // "limousine"
    /// ```
    public var toVehicleClass: String {
        let lowered = trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let key = lowered.split(whereSeparator: { $0.isWhitespace || $0 == "-" || $0 == "_" }).joined(separator: " ")
        return vehicleClassAliases[key] ?? lowered
    }
}

private let vehicleClassAliases: [String: String] = [
    "business": "business", "business class": "business",
    "first": "first", "first class": "first",
    "xl": "xl", "van": "xl", "xl van": "xl",
]
