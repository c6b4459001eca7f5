import Foundation

/// What can go wrong talking to the events API, typed so an app can react: sign in again,
/// confirm the email, pick other seats.
///
/// ```swift
/// do { _ = try await api.seatCheckout(.init(showId: id, specificSeatIds: ids)) }
/// catch EventsAPIError.seatsUnavailable(let gone, _) { highlight(gone) }
/// ```
public enum EventsAPIError: Error, Sendable, Equatable {
    /// No token, or it expired or was signed out: sign in again.
    case unauthorized(String)
    /// Buying needs a confirmed email address.
    case emailNotVerified(String)
    /// The seats named are gone (empty: not enough adjacent seats); nothing was held.
    case seatsUnavailable([String], String)
    case notFound(String)
    /// The request was refused (code and message from the server).
    case rejected(code: String, message: String)
    /// Slow down; try again after this many seconds when known.
    case rateLimited(retryAfter: Int?, String)
    case server(String)
    case network(String)
    case decoding

    /// A sentence for a person.
    public var message: String {
        switch self {
        case .unauthorized(let message), .emailNotVerified(let message), .seatsUnavailable(_, let message),
            .notFound(let message), .rejected(_, let message), .rateLimited(_, let message), .server(let message),
            .network(let message):
            message
        case .decoding: "The server's answer could not be read; update the app."
        }
    }
}

/// The seed's error body, with the seats that were gone on a 409.
struct EventsErrorBody: Decodable {
    let error: String
    let code: String
    let unavailableSeatIds: [String]?
}
