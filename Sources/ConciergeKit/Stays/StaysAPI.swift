public import ConciergeModels
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The seed's use cases as async functions returning `Result<…, StaysFailure>`: login,
/// register, rooms available, profile, make/get/delete reservations.
///
/// ```swift
/// let api = StaysAPI(network: StaysNetwork(baseURL: url, tokens: InMemoryStaysTokenStore()))
/// _ = await api.login(username: "anna.m", password: "correct horse battery")
/// let rooms = await api.roomsAvailable(checkIn: "2027-02-01", checkOut: "2027-02-03", guests: 2)
/// ```
public struct StaysAPI: Sendable {
    public let network: StaysNetwork

    public init(network: StaysNetwork) {
        self.network = network
    }

    /// Signs in by user name or email and keeps the tokens in the network's store.
    public func login(username: String, password: String) async -> Result<Stays.User, StaysFailure> {
        keep(
            await network.fetch(
                "POST", "login", body: Stays.LoginRequest(username: username, password: password), requiresAuth: false,
                as: Stays.User.self))
    }

    /// Keeps a sign-in's tokens in the network's store.
    private func keep(_ result: Result<Stays.User, StaysFailure>) -> Result<Stays.User, StaysFailure> {
        if case .success(let user) = result {
            do {
                try network.tokens.save(
                    StaysTokens(
                        username: user.username, guestId: user.guestId, token: user.token,
                        refreshToken: user.refreshToken))
            } catch {
                return .failure(.server("The sign-in could not be kept on this device: \(error.localizedDescription)"))
            }
        }
        return result
    }

    /// Signs in with an ID token of any issuer the server trusts (`apple`, `google`, `oidc`) and
    /// keeps the tokens.
    public func login(idToken request: Stays.IDTokenLoginRequest) async -> Result<Stays.User, StaysFailure> {
        keep(await network.fetch("POST", "login/id-token", body: request, requiresAuth: false, as: Stays.User.self))
    }

    /// Sends a sign-in code by SMS to `phone`; `login(phone:code:)` takes it.
    public func sendPhoneCode(to phone: String) async -> Result<Stays.PhoneCodeSent, StaysFailure> {
        await network.fetch(
            "POST", "login/phone/code", body: Stays.PhoneCodeRequest(phone: phone), requiresAuth: false,
            as: Stays.PhoneCodeSent.self)
    }

    /// Signs in with a phone and the code sent to it (the phone's account, or a new one) and
    /// keeps the tokens.
    public func login(phone: String, code: String) async -> Result<Stays.User, StaysFailure> {
        keep(
            await network.fetch(
                "POST", "login/phone", body: Stays.PhoneLoginRequest(phone: phone, code: code), requiresAuth: false,
                as: Stays.User.self))
    }

    /// Registers; does not sign in. The answer is the same whether or not the email already had
    /// an account ("check your mail", `guestId` 0): sign in next with `login`.
    public func register(_ form: Stays.RegisterRequest) async -> Result<Stays.Profile, StaysFailure> {
        await network.fetch("POST", "user/register", body: form, requiresAuth: false, as: Stays.Profile.self)
    }

    /// Forgets the tokens on this device.
    public func logout() { network.tokens.clear() }

    /// The signed-in user, if any.
    public var signedIn: StaysTokens? { network.tokens.load() }

    /// Dates as `YYYY-MM-DD` or epoch milliseconds.
    public func roomsAvailable(checkIn: String, checkOut: String, guests: Int, children: Int? = nil) async -> Result<
        [Stays.RoomHotel], StaysFailure
    > {
        var query = [
            URLQueryItem(name: "dStartTime", value: checkIn), URLQueryItem(name: "dEndTime", value: checkOut),
            URLQueryItem(name: "guests", value: String(guests)),
        ]
        if let children { query.append(URLQueryItem(name: "children", value: String(children))) }
        return await network.fetch("GET", "rooms", query: query, as: [Stays.RoomHotel].self)
    }

    public func profile(username: String) async -> Result<Stays.Profile, StaysFailure> {
        await network.fetch("GET", "user/\(username)", as: Stays.Profile.self)
    }

    public func updateProfile(username: String, _ update: Stays.ProfileUpdate) async -> Result<
        Stays.Profile, StaysFailure
    > {
        await network.fetch("PATCH", "user/\(username)", body: update, as: Stays.Profile.self)
    }

    /// Reserves; the same `idempotencyKey` on a retry answers the first reservation.
    public func makeReservation(_ request: Stays.ReservationRequest, idempotencyKey: String? = nil) async -> Result<
        Stays.Reservation, StaysFailure
    > {
        await network.fetch(
            "POST", "appointment", body: request, headers: idempotencyKey.map { ["Idempotency-Key": $0] } ?? [:],
            as: Stays.Reservation.self)
    }

    public enum When: String, Sendable {
        case upcoming
        case past
    }

    public func reservations(guestId: Int64, when: When? = nil) async -> Result<[Stays.Reservation], StaysFailure> {
        await network.fetch(
            "GET", "appointment/\(guestId)", query: when.map { [URLQueryItem(name: "when", value: $0.rawValue)] } ?? [],
            as: [Stays.Reservation].self)
    }

    public func deleteReservation(id: Int) async -> Result<Stays.Cancellation, StaysFailure> {
        await network.fetch("DELETE", "appointment/\(id)", as: Stays.Cancellation.self)
    }
}
