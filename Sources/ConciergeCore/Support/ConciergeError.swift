/// The one error type domain code throws. It says what went wrong in words a person can act on
/// (`message`), names it for machines (`code`), and says which kind of failure it is (`category`);
/// the server maps the category to an HTTP status in exactly one place.
public struct ConciergeError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Category: Sendable, Equatable {
        /// The request is wrong; repeating it unchanged will fail again.
        case invalidInput
        /// No valid session.
        case unauthorized
        case notFound
        case conflict
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

    public init(_ category: Category, code: String, message: String) {
        self.category = category
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
