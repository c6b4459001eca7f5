/// A request with fields a person must correct, one message per field (the seed's register form
/// shows them beside each field). Answered as 400 `errorType: "validation"` with
/// `data: {"fields": {…}}`, or 409 when a field names something taken.
public struct StaysValidationError: Error, Sendable, Equatable, ConciergeErrorConvertible {
    public let fields: [String: String]
    public let conflict: Bool

    public init(_ fields: [String: String], conflict: Bool = false) {
        self.fields = fields
        self.conflict = conflict
    }

    public var message: String {
        fields.count == 1
            ? (fields.values.first ?? "Check the form.")
            : "Check the \(fields.count) fields marked: \(fields.keys.sorted().joined(separator: ", "))."
    }

    public var conciergeError: ConciergeError {
        ConciergeError(conflict ? .conflict : .invalidInput, code: "validation", message: message, fields: fields)
    }
}
