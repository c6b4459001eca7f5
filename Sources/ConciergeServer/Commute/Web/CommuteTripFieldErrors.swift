import ConciergeCore

/// Which form field a refusal of the trip service concerns, and the words that say how to fix
/// it. The service names the API's field in its message (`'arrivalTime' must be …`); the page
/// puts the sentence next to the field of the same meaning, in the visitor's language.
enum CommuteTripFieldErrors {
    /// (a phrase of the service's message, the form field, the words key), first match wins.
    static let rules: [(String, String, String)] = [
        ("'origin.placeId'", "origin", "error_place_unknown"),
        ("'destination.placeId'", "destination", "error_place_unknown"),
        ("'origin", "origin", "error_place_invalid"),
        ("'destination", "destination", "error_place_invalid"),
        ("'name'", "name", "error_name"),
        ("'arrivalTime'", "arrival_time", "error_arrival_time"),
        ("'timeZone'", "time_zone", "error_time_zone"),
        ("'repeatDays'", "days", "error_days"),
        ("'bufferMinutes'", "buffer_minutes", "error_buffer"),
        ("'onTimeTarget'", "on_time_target", "error_on_time_target"),
        ("'notify.leadMinutes'", "lead_minutes", "error_lead"),
        ("'notify.channels'", "channels", "error_channels"),
        ("the same place", "destination", "error_same_place"),
        ("longer than", "destination", "error_too_far"),
    ]

    /// The field and words key for `error`; nil when it concerns no field (shown above the form).
    static func field(for error: ConciergeError) -> (field: String, key: String)? {
        guard error.category == .invalidInput else { return nil }
        for (phrase, field, key) in rules where error.message.contains(phrase) { return (field, key) }
        return nil
    }
}
