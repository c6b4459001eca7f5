import ConciergeCore
import Hummingbird

/// A request's query, parsed once. `uri.queryParameters` parses the whole string on every
/// access; a handler that reads three parameters should not parse three times.
struct Query {
    let parameters: Parameters

    init(_ request: Request) {
        parameters = request.uri.queryParameters
    }

    func required(_ name: String, maxLength: Int = 300) throws -> String {
        guard let value = parameters[name[...]].map(String.init), !value.isEmpty else {
            throw ConciergeError(
                .invalidInput, code: "invalid_request", message: "The query parameter '\(name)' is missing.")
        }
        guard value.count <= maxLength else {
            throw ConciergeError(
                .invalidInput, code: "invalid_request",
                message: "The query parameter '\(name)' is longer than \(maxLength) characters.")
        }
        return value
    }

    func optional(_ name: String) -> String? {
        parameters[name[...]].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// Reading query parameters with 400s that name the parameter.
extension Request {
    func requiredQuery(_ name: String, maxLength: Int = 300) throws -> String {
        try Query(self).required(name, maxLength: maxLength)
    }

    func optionalQuery(_ name: String) -> String? {
        Query(self).optional(name)
    }

    func optionalDouble(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = optionalQuery(name) else { return nil }
        guard let value = Double(text), range.contains(value) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_request",
                message:
                    "The query parameter '\(name)' must be a number between \(range.lowerBound) and \(range.upperBound)."
            )
        }
        return value
    }

    /// A whole number: `20` and `+20`, not `20.5`, `2e1` or `twenty` (those are 400, like values
    /// out of range), so what the document calls an integer is one.
    func optionalInteger(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = optionalQuery(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_request",
                message:
                    "The query parameter '\(name)' must be a whole number between \(range.lowerBound) and \(range.upperBound)."
            )
        }
        return value
    }
}
