import ConciergeCore
import Foundation
import Hummingbird

/// What a page tells the person to correct: sentences next to the fields they concern, or one at
/// the top of the page when no field is to blame.
struct RidesPageErrors {
    private(set) var byField: [String: String] = [:]
    private(set) var page: String?

    var isEmpty: Bool { byField.isEmpty && page == nil }

    /// The first message for a field stays: it names what to fix first.
    mutating func add(_ message: String, field: String?) {
        if let field {
            if byField[field] == nil { byField[field] = message }
        } else if page == nil {
            page = message
        }
    }

    /// `errors.<field>` and `pageError`, as the templates read them.
    var context: [String: Any] {
        var context: [String: Any] = ["errors": byField, "hasErrors": !isEmpty]
        if let page { context["pageError"] = page }
        return context
    }
}

extension RidesWebPages {
    /// The form field a service's refusal concerns; nil for refusals about the whole request.
    static func field(of error: ConciergeError) -> String? {
        switch error.code {
        case "pickup_too_soon", "pickup_too_far", "invalid_pickup_time": "date"
        case "too_many_passengers", "invalid_passengers": "passengers"
        case "invalid_flight_number": "flight"
        case "invalid_vehicle_class": "vehicleClass"
        case "invalid_place": error.message.hasPrefix("The destination") ? "destination" : "pickup"
        case "route_failed": "destination"
        case "invalid_phone", "resend_too_soon": "phone"
        case "invalid_code", "code_expired", "too_many_attempts": "code"
        default: nil
        }
    }

    /// A service's refusal in the visitor's language: the service's own sentence in English
    /// (it names times and limits), a translation of its code otherwise when there is one.
    func sentence(_ error: ConciergeError, _ visit: WebVisit) -> String {
        guard visit.language != .en else { return error.message }
        let key = "error_\(error.code)"
        let translated = text(key, visit)
        guard translated != "rides.\(key)" else { return error.message }
        return
            translated
            .replacingOccurrences(of: "{hours}", with: String(rules.minimumAdvanceHours))
            .replacingOccurrences(of: "{cancelHours}", with: String(rules.freeCancellationHours))
    }

    /// Adds a refusal to `errors`, next to its field.
    func record(_ error: ConciergeError, in errors: inout RidesPageErrors, _ visit: WebVisit) {
        errors.add(sentence(error, visit), field: Self.field(of: error))
    }

    /// The HTTP status of a refusal, as the API would answer it.
    static func status(of error: ConciergeError) -> HTTPResponse.Status {
        ErrorMiddleware<AppRequestContext>.status(of: error.category).0
    }
}
