import ConciergeModels
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The HTTP client behind every service: one base URL, one `URLSession`, JSON both ways, and
/// the server's error bodies turned into `BookingError`.
///
/// ```swift
/// let client = ConciergeClient(baseURL: URL(string: "https://rides.example.com")!)
/// let pricing = PricingService(client: client)
/// ```
public struct ConciergeClient: Sendable {
    /// The server, e.g. `https://rides.example.com`.
    public let baseURL: URL
    /// The session requests go through: `ConciergeClient(baseURL: url, session: .shared)`.
    public let session: URLSession

    /// `ConciergeClient(baseURL: URL(string: "https://rides.example.com")!)`.
    public init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// The client for `Concierge.configure(baseURL:)`'s server.
    public static var configured: ConciergeClient {
        ConciergeClient(baseURL: Concierge.baseURL)
    }

    struct NoBody: Encodable {}

    func send<Response: Decodable>(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: (some Encodable)? = NoBody?.none,
        token: String? = nil, headers: [String: String] = [:], as: Response.Type = Response.self
    ) async throws(BookingError) -> Response {
        guard var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        else { throw .invalidURL }
        if !query.isEmpty { components.queryItems = query }
        guard let url = components.url else { throw .invalidURL }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            do {
                request.httpBody = try JSONEncoder().encode(body)
            } catch {
                throw .validationError("The request could not be encoded.")
            }
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .networkError(error)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else { throw Self.error(status: status, body: data) }
        do {
            return try JSONDecoder().decode(Response.self, from: data)
        } catch {
            throw .decodingError
        }
    }

    /// Maps a status and the contract's error body to the app's error cases.
    static func error(status: Int, body: Data) -> BookingError {
        let payload = try? JSONDecoder().decode(ErrorBody.self, from: body)
        let message = payload?.error ?? HTTPURLResponse.localizedString(forStatusCode: status)
        switch (status, payload?.code) {
        case (401, _): return .unauthorized
        case (_, "route_failed"?): return .routeCalculationFailed
        case (400..<500, _): return .validationError(message)
        default: return .serverError(message)
        }
    }
}

/// Where the `.shared` services send their requests.
///
/// ```swift
/// Concierge.configure(baseURL: URL(string: "https://rides.example.com")!)
/// let response = try await VeramoAuthService.shared.requestSMSCode(phone: "+41791234567")
/// ```
public enum Concierge {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var configuredBaseURL = URL(string: "http://127.0.0.1:8080")!

    /// Sets the server of every `.shared` service (default http://127.0.0.1:8080).
    public static func configure(baseURL: URL) {
        lock.withLock { configuredBaseURL = baseURL }
    }

    /// The configured server: `Concierge.baseURL.absoluteString`.
    public static var baseURL: URL {
        lock.withLock { configuredBaseURL }
    }
}
