public import ConciergeModels
import Foundation

extension Rides {
    /// Sign-in by SMS code.
    ///
    /// ```swift
    /// _ = try await VeramoAuthService.shared.requestSMSCode(phone: "+41791234567")
    /// let (customer, sessionToken) = try await VeramoAuthService.shared.verifySMSCode(
    ///     phone: "+41791234567", code: "123456")
    /// AuthenticationManager.shared.saveAuthentication(customer: customer, sessionToken: sessionToken)
    /// ```
    public struct VeramoAuthService: Sendable {
        /// Talks to `Concierge.configure(baseURL:)`'s server.
        public static var shared: VeramoAuthService { VeramoAuthService(client: .configured) }

        /// The server connection: `service.client.baseURL`.
        public let client: ConciergeClient

        /// `VeramoAuthService(client: ConciergeClient(baseURL: url))` for a server of its own.
        public init(client: ConciergeClient) {
            self.client = client
        }

        /// Sends a six-digit code to `phone` (E.164, spaces allowed). The answer says how long the
        /// code lives and when a new one may be requested.
        @discardableResult
        public func requestSMSCode(phone: String) async throws(BookingError) -> SMSCodeSendResponse {
            try await client.send("POST", "rides/sms-code-send", body: SMSCodeSendRequest(phone: phone))
        }

        /// Exchanges the code for the customer and a session token.
        public func verifySMSCode(phone: String, code: String) async throws(BookingError) -> (
            AuthenticatedCustomer, String
        ) {
            let response = try await verify(phone: phone, code: code)
            return (response.customer, response.sessionToken)
        }

        /// Like `verifySMSCode`, with the session's expiry.
        public func verify(phone: String, code: String) async throws(BookingError) -> SMSCodeVerifyResponse {
            try await client.send("POST", "rides/sms-code-verify", body: SMSCodeVerifyRequest(phone: phone, code: code))
        }

        /// Revokes the session on the server and forgets it on this device.
        public func logout(manager: AuthenticationManager = .shared) async {
            if let token = manager.sessionToken {
                _ = try? await client.send("POST", "rides/logout", token: token, as: SuccessResponse.self)
            }
            manager.logout()
        }

        /// The signed-in customer's profile.
        public func profile(sessionToken: String) async throws(BookingError) -> AuthenticatedCustomer {
            try await client.send("GET", "rides/me", token: sessionToken, as: CustomerProfileResponse.self).customer
        }

        /// Sets name and/or email; `nil` leaves a field as it is.
        public func updateProfile(name: String?, email: String?, sessionToken: String) async throws(BookingError)
            -> AuthenticatedCustomer
        {
            let body = UpdateProfileRequest(
                name: name.map { .set($0) } ?? .keep, email: email.map { .set($0) } ?? .keep)
            return try await client.send(
                "PATCH", "rides/me", body: body, token: sessionToken, as: CustomerProfileResponse.self
            )
            .customer
        }
    }
}
