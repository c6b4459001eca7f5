/// The one error type domain code throws. It says what went wrong in words a person can act on
/// (`message`), names it for machines (`code`), and says which kind of failure it is (`category`);
/// the server maps the category to an HTTP status in exactly one place.
///
/// `fields` holds one message per request field a person must correct (a form shows each beside
/// its field); `details` holds extra facts a client acts on (`unavailableSeatIds`). Every
/// vertical's error body carries both in its own envelope (`docs/api/errors.md`).
public struct ConciergeError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Category: Sendable, Equatable {
        /// The request is wrong; repeating it unchanged will fail again.
        case invalidInput
        /// No valid session.
        case unauthorized
        /// Signed in, but not allowed to do this yet (an unverified email).
        case forbidden
        case notFound
        case conflict
        /// Well-formed, but it cannot be carried out as sent (an `Idempotency-Key` reused with
        /// another body).
        case unprocessable
        /// Slow down; `retryAfterSeconds` says when trying again can succeed, when that is known.
        case tooManyRequests(retryAfterSeconds: Int?)
        /// A provider answered with an error we cannot fix by retrying.
        case upstreamFailed
        /// A provider or the database is unreachable right now; retrying later can succeed.
        case unavailable(retryAfterSeconds: Int?)
    }

    public let category: Category
    public let code: String
    public let message: String
    /// One message per field to correct, keyed by the field's path in the request
    /// (`checkIn`, `specificSeatIds[0]`).
    public let fields: [String: String]
    /// Extra facts beside the message, keyed by their wire name.
    public let details: [String: ErrorDetail]

    public init(
        _ category: Category, code: String, message: String, fields: [String: String] = [:],
        details: [String: ErrorDetail] = [:]
    ) {
        self.category = category
        self.code = code
        self.message = message
        self.fields = fields
        self.details = details
    }

    public var description: String { "\(code): \(message)" }
}

/// An extra fact an error body carries beside its message: a value a client acts on.
public enum ErrorDetail: Sendable, Equatable {
    case text(String)
    case texts([String])
    case number(Int)
}

/// An error of a vertical's own type that the platform renders like a `ConciergeError`.
public protocol ConciergeErrorConvertible: Error {
    var conciergeError: ConciergeError { get }
}
