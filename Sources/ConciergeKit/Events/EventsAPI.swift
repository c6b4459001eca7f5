public import ConciergeModels
import Foundation

/// The events API, one method per endpoint of the seed (and the contract's additions), so an
/// app can swap in a fake for previews and tests.
///
/// ```swift
/// let api: any EventsAPI = EventsClient(baseURL: URL(string: "https://tickets.example.com")!)
/// let shows = try await api.shows(EventsShowQuery(text: "jazz"))
/// ```
public protocol EventsAPI: Sendable {
    func signUp(email: String, password: String, name: String) async throws(EventsAPIError) -> Events.AuthResponse
    func signIn(email: String, password: String) async throws(EventsAPIError) -> Events.AuthResponse
    func socialSignIn(_ request: Events.SocialSignInRequest) async throws(EventsAPIError) -> Events.AuthResponse
    func signIn(idToken request: Events.IDTokenSignInRequest) async throws(EventsAPIError) -> Events.AuthResponse
    func sendPhoneCode(to phone: String) async throws(EventsAPIError) -> Events.PhoneCodeSent
    func signIn(phone: String, code: String) async throws(EventsAPIError) -> Events.AuthResponse
    /// The signed-in user, or `.unauthorized`.
    func verifyToken() async throws(EventsAPIError) -> Events.AuthResponse
    func verifyEmail(token: String, email: String) async throws(EventsAPIError)
    func resendVerification(email: String) async throws(EventsAPIError)
    func forgotPassword(email: String) async throws(EventsAPIError)
    func resetPassword(token: String, password: String) async throws(EventsAPIError)
    func signOut() async throws(EventsAPIError)
    func shows(_ query: EventsShowQuery) async throws(EventsAPIError) -> [Events.Show]
    func show(id: String) async throws(EventsAPIError) -> Events.Show
    func seats(showID: String) async throws(EventsAPIError) -> [Events.Seat]
    func seatMap(showID: String) async throws(EventsAPIError) -> Events.SeatMap
    func seatCheckout(_ request: Events.SeatCheckoutRequest) async throws(EventsAPIError) -> Events.SeatCheckoutResponse
    func checkoutResult(sessionID: String) async throws(EventsAPIError) -> Events.CheckoutSuccessResponse
    func bookings() async throws(EventsAPIError) -> [Events.UserBooking]
    func cancelBooking(id: String) async throws(EventsAPIError) -> Events.CheckoutSuccessResponse
    /// The door: admits a ticket's scan code (`qrCode`) to `showID` once. Refusals (already
    /// admitted, forged, another show, cancelled) are answers, not errors; a missing or revoked
    /// scanner token is `.unauthorized`.
    func checkIn(code: String, showID: String, gate: String?, scannerToken: String) async throws(EventsAPIError)
        -> Events.CheckInResponse
}

/// The list's filters, as `GET /events/api/shows` takes them.
public struct EventsShowQuery: Sendable, Equatable {
    public var text: String?
    /// `YYYY-MM-DD`.
    public var from: String?
    public var to: String?
    public var venue: String?
    /// Whole currency units.
    public var maxPrice: Int?
    public var includePast = false
    public var limit: Int?

    public init(text: String? = nil, from: String? = nil, to: String? = nil, venue: String? = nil, maxPrice: Int? = nil)
    {
        self.text = text
        self.from = from
        self.to = to
        self.venue = venue
        self.maxPrice = maxPrice
    }

    var items: [URLQueryItem] {
        var items: [URLQueryItem] = []
        func add(_ name: String, _ value: String?) {
            if let value { items.append(URLQueryItem(name: name, value: value)) }
        }
        add("q", text)
        add("from", from)
        add("to", to)
        add("venue", venue)
        add("maxPrice", maxPrice.map(String.init))
        add("includePast", includePast ? "true" : nil)
        add("limit", limit.map(String.init))
        return items
    }
}
