import Foundation

/// What went wrong with a stays request, as the seed app's `Failure` names it: per-field
/// validation messages, an ended session, a sold-out night, and the rest.
///
/// ```swift
/// switch await api.register(form) {
/// case .failure(.validation(let fields, _)): showBesideFields(fields)
/// case .failure(let failure): show(failure.message)
/// case .success: goToLogin()
/// }
/// ```
public enum StaysFailure: Error, Sendable, Equatable {
    /// A field to correct, `["email": "Enter a valid email address…"]`.
    case validation(fields: [String: String], message: String)
    /// No session, or it ended and could not be refreshed: sign in again.
    case unauthorized(String)
    case notFound(String)
    /// No free room on one of the nights.
    case soldOut(String)
    /// Another conflict (`already_cancelled`, `stay_started`, a taken email…).
    case conflict(code: String, message: String)
    case rateLimited(retryAfter: Int?, message: String)
    case badRequest(code: String, message: String)
    case server(String)
    case network(String)
    case decoding

    /// A sentence for the person using the app.
    public var message: String {
        switch self {
        case .validation(_, let message), .unauthorized(let message), .notFound(let message),
            .soldOut(let message), .conflict(_, let message), .rateLimited(_, let message),
            .badRequest(_, let message), .server(let message), .network(let message):
            message
        case .decoding: "The server's answer could not be read. Update the app or try again."
        }
    }
}
