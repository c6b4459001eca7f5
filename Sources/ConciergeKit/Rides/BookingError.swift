public import Foundation

extension Rides {
    /// What can go wrong talking to Concierge, as the rides app's code expects it. Every service of
    /// ConciergeKit throws this.
    ///
    /// ```swift
    /// do {
    ///     _ = try await BookingService.shared.createBooking(...)
    /// } catch BookingError.unauthorized {
    ///     AuthenticationManager.shared.logout()   // session expired: sign in again
    /// } catch BookingError.validationError(let message) {
    ///     showAlert(message)                       // the server says what to change
    /// }
    /// ```
    public enum BookingError: Error, Sendable, LocalizedError {
        case invalidURL
        /// 401: the session is missing, expired or revoked; sign in again.
        case unauthorized
        /// 400, 404, 409, 413 or 429: the server's message says what to change.
        case validationError(String)
        /// `route_failed`: no drivable route between the places (400; 502 when the routing provider failed).
        case routeCalculationFailed
        case networkError(any Error)
        case decodingError
        /// 5xx: the server or a provider failed; the message says whether to retry.
        case serverError(String)
        case missingSessionToken
        case missingPlaceId

        /// A sentence for an alert: `Text(error.localizedDescription)`.
        public var errorDescription: String? {
            switch self {
            case .invalidURL: "The server address is not valid."
            case .unauthorized: "Your session has expired. Please sign in again."
            case .validationError(let message): message
            case .routeCalculationFailed: "We could not find a driving route between these places."
            case .networkError: "The server could not be reached. Check your connection and try again."
            case .decodingError: "The server's answer could not be read. Please update the app."
            case .serverError(let message): message
            case .missingSessionToken: "Please sign in first."
            case .missingPlaceId: "Choose the pickup and the destination from the suggestions."
            }
        }
    }
}
