import ConciergeModels
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The seed's `BaseNetworkManager`: JSON in the `APIResponse` wrapper, the access token
/// injected, and on a 401 one refresh and one retry. Concurrent requests that hit 401 together
/// share one refresh (a refresh token works once; two refreshes would end the family).
///
/// ```swift
/// let network = StaysNetwork(baseURL: URL(string: "https://hotel.example.com/stays")!, tokens: FileStaysTokenStore())
/// let api = StaysAPI(network: network)
/// ```
public final class StaysNetwork: Sendable {
    /// The server's stays prefix, e.g. `https://hotel.example.com/stays`.
    public let baseURL: URL
    public let tokens: any StaysTokenStore
    let session: URLSession
    private let refresher = StaysRefresher()

    public init(baseURL: URL, tokens: any StaysTokenStore, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.tokens = tokens
        self.session = session
    }

    struct NoBody: Encodable {}

    /// The wrapper's `data`, or what went wrong.
    func fetch<T: Codable & Sendable>(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: (some Encodable & Sendable)? = NoBody?.none,
        headers: [String: String] = [:], requiresAuth: Bool = true, as type: T.Type = T.self
    ) async -> Result<T, StaysFailure> {
        let token = requiresAuth ? tokens.load()?.token : nil
        if requiresAuth, token == nil { return .failure(.unauthorized("Sign in first.")) }
        let first = await send(method, path, query: query, body: body, headers: headers, token: token, as: type)
        guard requiresAuth, case .failure(.unauthorized) = first, let token else { return first }
        guard let fresh = await refresher.refresh(after: token, network: self) else {
            return .failure(.unauthorized("Your session ended. Sign in again."))
        }
        return await send(method, path, query: query, body: body, headers: headers, token: fresh, as: type)
    }

    private func send<T: Codable & Sendable>(
        _ method: String, _ path: String, query: [URLQueryItem], body: (some Encodable & Sendable)?,
        headers: [String: String], token: String?, as type: T.Type
    ) async -> Result<T, StaysFailure> {
        guard var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        else { return .failure(.badRequest(code: "invalid_url", message: "The address is not valid.")) }
        if !query.isEmpty { components.queryItems = query }
        guard let url = components.url else {
            return .failure(.badRequest(code: "invalid_url", message: "The address is not valid."))
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try? JSONEncoder().encode(body)
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            return .failure(.network(error.localizedDescription))
        }
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        if (200..<300).contains(status) {
            guard let envelope = try? JSONDecoder().decode(Stays.APIResponse<T>.self, from: data),
                let value = envelope.data
            else { return .failure(.decoding) }
            return .success(value)
        }
        let retryAfter = (http?.value(forHTTPHeaderField: "Retry-After")).flatMap { Int($0) }
        return .failure(Self.failure(status: status, body: data, retryAfter: retryAfter))
    }

    /// Maps an error answer in the wrapper to the app's failure cases.
    static func failure(status: Int, body: Data, retryAfter: Int?) -> StaysFailure {
        let envelope = try? JSONDecoder().decode(Stays.APIResponse<Stays.ValidationFields>.self, from: body)
        let message = envelope?.message ?? HTTPURLResponse.localizedString(forStatusCode: status)
        let code = envelope?.errorType ?? "error"
        if code == "validation" { return .validation(fields: envelope?.data?.fields ?? [:], message: message) }
        switch status {
        case 401: return .unauthorized(message)
        case 404: return .notFound(message)
        case 409 where code == "sold_out": return .soldOut(message)
        case 409: return .conflict(code: code, message: message)
        case 429: return .rateLimited(retryAfter: retryAfter, message: message)
        case 400..<500: return .badRequest(code: code, message: message)
        default: return .server(message)
        }
    }

    /// Spends the stored refresh token; stores and returns the new access token, or clears the
    /// tokens when the refresh is refused.
    func refreshNow() async -> String? {
        guard let saved = tokens.load() else { return nil }
        let result = await send(
            "POST", "auth/refresh", query: [], body: Stays.RefreshRequest(refreshToken: saved.refreshToken),
            headers: [:], token: nil, as: Stays.User.self)
        switch result {
        case .success(let user):
            try? tokens.save(
                StaysTokens(
                    username: user.username, guestId: user.guestId, token: user.token, refreshToken: user.refreshToken))
            return user.token
        case .failure(.unauthorized):
            tokens.clear()
            return nil
        case .failure:
            return nil
        }
    }
}

/// One refresh at a time: requests that failed with the same stale token wait for the refresh
/// already under way; a request whose token was replaced meanwhile just uses the new one.
actor StaysRefresher {
    private var inFlight: Task<String?, Never>?

    func refresh(after staleToken: String, network: StaysNetwork) async -> String? {
        if let current = network.tokens.load()?.token, current != staleToken { return current }
        if let inFlight { return await inFlight.value }
        let task = Task { await network.refreshNow() }
        inFlight = task
        let token = await task.value
        inFlight = nil
        return token
    }
}
