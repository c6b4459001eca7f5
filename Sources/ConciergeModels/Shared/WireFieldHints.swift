/// What a request body's fields must hold, in words, for fields whose JSON type alone says too
/// little (`checkIn` is a number, but a number of epoch milliseconds). The server's error for a
/// field of the wrong type quotes it: "The field 'checkIn' must be <hint>."
public protocol WireFieldHints {
    /// Hints keyed by the field's path in the body (`checkIn`, `pickup.placeId`).
    static var fieldHints: [String: String] { get }
}

/// A wire type that names itself in an error about a field of the wrong type.
public protocol WireTypeDescribed {
    /// "a date like 2027-03-20", "a seat id"
    static var wireDescription: String { get }
}
