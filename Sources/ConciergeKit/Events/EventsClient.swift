public import ConciergeModels
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// `EventsAPI` over HTTP: the server's root URL (`/events` is added), the token from and to a
/// `EventsTokenStore` (sign-up and sign-in save it, sign-out clears it).
///
/// ```swift
/// let client = EventsClient(baseURL: URL(string: "https://tickets.example.com")!)
/// _ = try await client.signIn(email: "anna@example.ch", password: "a long passphrase")
/// let mine = try await client.bookings()
/// ```
public struct EventsClient: EventsAPI {
    public let baseURL: URL
    public let tokens: any EventsTokenStore
    public let session: URLSession

    public init(baseURL: URL, tokens: any EventsTokenStore = InMemoryEventsTokenStore(), session: URLSession = .shared)
    {
        self.baseURL = baseURL
        self.tokens = tokens
        self.session = session
    }

    /// Signs up, then signs in with the same email and password, so the client holds a token as
    /// before. The server answers sign-up without one ("check your mail", the same whether or not
    /// the address had an account); when the sign-in is refused — the address had an account
    /// with another password — that answer is returned, without a token.
    public func signUp(email: String, password: String, name: String) async throws(EventsAPIError)
        -> Events.AuthResponse
    {
        let accepted: Events.AuthResponse = try await send(
            "POST", "api/auth/signup", body: Events.SignUpRequest(email: email, password: password, name: name))
        do {
            return try await signIn(email: email, password: password)
        } catch .unauthorized {
            return accepted
        }
    }

    /// Signs in with an ID token of any issuer the server trusts (`apple`, `google`, `oidc`).
    public func signIn(idToken request: Events.IDTokenSignInRequest) async throws(EventsAPIError)
        -> Events.AuthResponse
    {
        try keep(try await send("POST", "api/auth/id-token", body: request))
    }

    /// Sends a sign-in code by SMS to `phone`; `signIn(phone:code:)` takes it.
    public func sendPhoneCode(to phone: String) async throws(EventsAPIError) -> Events.PhoneCodeSent {
        try await send("POST", "api/auth/phone/code", body: Events.PhoneCodeRequest(phone: phone))
    }

    /// Signs in with a phone and the code sent to it: the phone's account, or a new one.
    public func signIn(phone: String, code: String) async throws(EventsAPIError) -> Events.AuthResponse {
        try keep(try await send("POST", "api/auth/phone", body: Events.PhoneSignInRequest(phone: phone, code: code)))
    }

    public func signIn(email: String, password: String) async throws(EventsAPIError) -> Events.AuthResponse {
        try keep(
            try await send("POST", "api/auth/signin", body: Events.SignInRequest(email: email, password: password)))
    }

    public func socialSignIn(_ request: Events.SocialSignInRequest) async throws(EventsAPIError) -> Events.AuthResponse
    {
        try keep(try await send("POST", "api/auth/social", body: request))
    }

    public func verifyToken() async throws(EventsAPIError) -> Events.AuthResponse {
        try await send("POST", "api/auth/verify", authorized: true)
    }

    /// Confirms the address with the emailed token, sending the client's token when it holds
    /// one: a link confirmed without the session of its account counts as a stranger's proof of
    /// the mailbox, which removes the password chosen at sign-up and signs every session out.
    public func verifyEmail(token: String, email: String) async throws(EventsAPIError) {
        let _: Events.Success = try await send(
            "POST", "api/auth/verify-email", body: Events.VerifyEmailRequest(token: token, email: email),
            authorized: tokens.load() != nil)
    }

    public func resendVerification(email: String) async throws(EventsAPIError) {
        let _: Events.Success = try await send(
            "POST", "api/auth/resend-verification", body: Events.EmailRequest(email: email))
    }

    public func forgotPassword(email: String) async throws(EventsAPIError) {
        let _: Events.Success = try await send(
            "POST", "api/auth/forgot-password", body: Events.EmailRequest(email: email))
    }

    public func resetPassword(token: String, password: String) async throws(EventsAPIError) {
        let _: Events.Success = try await send(
            "POST", "api/auth/reset-password", body: Events.ResetPasswordRequest(token: token, password: password))
    }

    public func signOut() async throws(EventsAPIError) {
        defer { tokens.clear() }
        let _: Events.Success = try await send("POST", "api/auth/signout", authorized: true)
    }

    public func shows(_ query: EventsShowQuery) async throws(EventsAPIError) -> [Events.Show] {
        try await send("GET", "api/shows", query: query.items)
    }

    public func show(id: String) async throws(EventsAPIError) -> Events.Show {
        try await send("GET", "api/shows/\(id)")
    }

    public func seats(showID: String) async throws(EventsAPIError) -> [Events.Seat] {
        try await send("GET", "api/shows/\(showID)/seats", authorized: tokens.load() != nil)
    }

    public func seatMap(showID: String) async throws(EventsAPIError) -> Events.SeatMap {
        try await send("GET", "api/shows/\(showID)/seatmap")
    }

    public func seatCheckout(_ request: Events.SeatCheckoutRequest) async throws(EventsAPIError)
        -> Events.SeatCheckoutResponse
    {
        try await send("POST", "api/seat-checkout", body: request, authorized: true)
    }

    /// Sends the signed-in buyer's token when there is one: only the owner's answer carries the
    /// tickets (`qrCode` and seats).
    public func checkoutResult(sessionID: String) async throws(EventsAPIError) -> Events.CheckoutSuccessResponse {
        try await send(
            "GET", "api/checkout/success", query: [URLQueryItem(name: "session_id", value: sessionID)],
            bearer: tokens.load())
    }

    public func bookings() async throws(EventsAPIError) -> [Events.UserBooking] {
        try await send("GET", "api/user/bookings", authorized: true)
    }

    public func cancelBooking(id: String) async throws(EventsAPIError) -> Events.CheckoutSuccessResponse {
        try await send("POST", "api/user/bookings/\(id)/cancel", authorized: true)
    }

    /// Uses `scannerToken` rather than the signed-in buyer's token: the door is not a buyer.
    public func checkIn(code: String, showID: String, gate: String?, scannerToken: String) async throws(EventsAPIError)
        -> Events.CheckInResponse
    {
        try await send(
            "POST", "api/checkin", body: Events.CheckInRequest(qrCode: code, showId: showID, gate: gate),
            bearer: scannerToken)
    }

    // MARK: Transport

    private struct NoBody: Encodable {}

    private func keep(_ response: Events.AuthResponse) throws(EventsAPIError) -> Events.AuthResponse {
        if let token = response.token {
            do { try tokens.save(token) } catch { throw .server("The token could not be saved: \(error)") }
        }
        return response
    }

    private func send<Response: Decodable>(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: (some Encodable)? = NoBody?.none,
        authorized: Bool = false, bearer: String? = nil
    ) async throws(EventsAPIError) -> Response {
        let url = baseURL.appendingPathComponent("events").appendingPathComponent(path)
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .rejected(code: "invalid_url", message: "'\(path)' is not a valid path.")
        }
        if !query.isEmpty { components.queryItems = query }
        guard let target = components.url else { throw .rejected(code: "invalid_url", message: "Invalid query.") }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let bearer {
            request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        } else if authorized {
            guard let token = tokens.load() else { throw .unauthorized("Sign in first.") }
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try? JSONEncoder().encode(body)
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .network(error.localizedDescription)
        }
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            throw Self.error(status: status, body: data, retryAfter: http?.value(forHTTPHeaderField: "Retry-After"))
        }
        do {
            return try JSONDecoder().decode(Response.self, from: data)
        } catch {
            throw .decoding
        }
    }

    static func error(status: Int, body: Data, retryAfter: String?) -> EventsAPIError {
        let payload = try? JSONDecoder().decode(EventsErrorBody.self, from: body)
        let message = payload?.error ?? HTTPURLResponse.localizedString(forStatusCode: status)
        switch (status, payload?.code) {
        case (401, _): return .unauthorized(message)
        case (403, "email_not_verified"?): return .emailNotVerified(message)
        case (409, "seats_unavailable"?): return .seatsUnavailable(payload?.unavailableSeatIds ?? [], message)
        case (404, _): return .notFound(message)
        case (429, _): return .rateLimited(retryAfter: retryAfter.flatMap { Int($0) }, message)
        case (400..<500, let code): return .rejected(code: code ?? "rejected", message: message)
        default: return .server(message)
        }
    }
}
