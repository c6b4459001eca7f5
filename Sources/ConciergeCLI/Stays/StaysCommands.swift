public import ConciergeKit
import ConciergeModels
import Foundation

/// The stays commands of the CLI, as functions that return what to print: tables, or JSON with
/// `json`. Failures throw `CLIError` with one line to show.
public struct StaysCommands: Sendable {
    public let api: StaysAPI
    public let json: Bool

    public init(api: StaysAPI, json: Bool) {
        self.api = api
        self.json = json
    }

    public func register(
        username: String, firstName: String, lastName: String, email: String, phone: String, password: String
    ) async throws -> String {
        let profile = try Self.unwrap(
            await api.register(
                Stays.RegisterRequest(
                    username: username, firstName: firstName, lastName: lastName, email: email, phone: phone,
                    password: password)))
        if json { return try RidesCommands.encode(profile) }
        return "Registered \(profile.username) (guest \(profile.guestId)). Sign in with `concierge stays login`."
    }

    public func login(_ login: String, password: String) async throws -> String {
        let user = try Self.unwrap(await api.login(username: login, password: password))
        if json { return try RidesCommands.encode(["username": user.username, "guestId": String(user.guestId)]) }
        return "Signed in as \(user.username) (guest \(user.guestId))."
    }

    public func logout() -> String {
        api.logout()
        return json ? #"{"success":true}"# : "Signed out."
    }

    public func profile() async throws -> String {
        guard let username = api.signedIn?.username else { throw Self.notSignedIn }
        let profile = try Self.unwrap(await api.profile(username: username))
        if json { return try RidesCommands.encode(profile) }
        return Table(
            headers: ["USERNAME", "NAME", "EMAIL", "PHONE", "GUEST"],
            rows: [
                [
                    profile.username, "\(profile.firstName) \(profile.lastName)", profile.email, profile.phone,
                    String(profile.guestId),
                ]
            ]
        ).render()
    }

    /// Dates as `YYYY-MM-DD`.
    public func rooms(from: String, to: String, guests: Int, children: Int?) async throws -> String {
        let rooms = try Self.unwrap(
            await api.roomsAvailable(checkIn: from, checkOut: to, guests: guests, children: children))
        if json { return try RidesCommands.encode(rooms) }
        guard !rooms.isEmpty else { return "No room is free from \(from) to \(to) for \(guests) guest(s)." }
        return Table(
            headers: ["ID", "TYPE", "HOLDS", "PER NIGHT", "NIGHTS", "CITY TAX", "TOTAL", "FREE"],
            rows: rooms.map {
                [
                    String($0.id), $0.roomType, String($0.peopleQuantity), Self.money($0.priceCents, $0.currency),
                    String($0.nights), Self.money($0.taxPriceCents, $0.currency),
                    Self.money($0.totalPriceCents, $0.currency), String($0.available),
                ]
            }
        ).render()
    }

    public func reserve(room: Int64, from: String, to: String, guests: Int, purpose: String?) async throws -> String {
        let request = Stays.ReservationRequest(
            roomHotelId: room, checkIn: try Self.millis(from), checkOut: try Self.millis(to), guests: guests,
            purpose: purpose)
        let reservation = try Self.unwrap(await api.makeReservation(request, idempotencyKey: UUID().uuidString))
        if json { return try RidesCommands.encode(reservation) }
        let total =
            "Total \(Self.money(reservation.totalPriceCents, reservation.currency)) including city tax \(Self.money(reservation.taxPriceCents, reservation.currency))"
        if let payment = reservation.payment, let checkout = payment.checkoutUrl {
            return """
                Held \(reservation.roomHotel.roomType), \(from) to \(to) until \(Self.day(payment.payBy)) (id \(reservation.id), order \(payment.reference)).
                \(total), paid in advance: pay at \(checkout) to confirm \(reservation.confirmationCode).
                \(reservation.cancellationPolicy)
                """
        }
        return """
            Reserved \(reservation.roomHotel.roomType), \(from) to \(to): confirmation \(reservation.confirmationCode) (id \(reservation.id)).
            \(total), \(reservation.payment == nil ? "paid at the hotel" : "paid in advance").
            \(reservation.cancellationPolicy)
            """
    }

    /// `when` is `upcoming`, `past` or nil for both.
    public func reservations(when: String?) async throws -> String {
        guard let guestId = api.signedIn?.guestId else { throw Self.notSignedIn }
        let filter = try when.map { text throws -> StaysAPI.When in
            guard let value = StaysAPI.When(rawValue: text) else { throw CLIError("--when is upcoming or past") }
            return value
        }
        let list = try Self.unwrap(await api.reservations(guestId: guestId, when: filter))
        if json { return try RidesCommands.encode(list) }
        guard !list.isEmpty else { return "No reservations." }
        return Table(
            headers: ["ID", "CODE", "ROOM", "CHECK-IN", "CHECK-OUT", "GUESTS", "TOTAL", "STATUS"],
            rows: list.map {
                [
                    String($0.id), $0.confirmationCode, $0.roomHotel.roomType, Self.day($0.checkIn),
                    Self.day($0.checkOut),
                    String($0.guests), Self.money($0.totalPriceCents, $0.currency), $0.status,
                ]
            }
        ).render()
    }

    public func cancel(id: Int) async throws -> String {
        let cancellation = try Self.unwrap(await api.deleteReservation(id: id))
        if json { return try RidesCommands.encode(cancellation) }
        let refunded =
            cancellation.refundedCents > 0
            ? " \(Self.money(cancellation.refundedCents, cancellation.currency)) is refunded." : ""
        return cancellation.chargedCents > 0
            ? "Cancelled \(cancellation.reservation.confirmationCode); the first night, \(Self.money(cancellation.chargedCents, cancellation.currency)), is charged under the policy.\(refunded)"
            : "Cancelled \(cancellation.reservation.confirmationCode) free of charge.\(refunded)"
    }

    // MARK: Helpers

    static let notSignedIn = CLIError("not signed in — run `concierge stays login --user NAME`")

    static func unwrap<T>(_ result: Result<T, StaysFailure>) throws -> T {
        switch result {
        case .success(let value): return value
        case .failure(.validation(let fields, _)):
            throw CLIError(fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n"))
        case .failure(.unauthorized): throw notSignedIn
        case .failure(.network):
            throw CLIError("the server cannot be reached — is it running? (set --server or CONCIERGE_SERVER)")
        case .failure(let failure): throw CLIError(failure.message)
        }
    }

    static func money(_ cents: Int, _ currency: String) -> String {
        "\(currency) \(cents / 100).\(String(format: "%02d", cents % 100))"
    }

    /// Noon UTC of a `YYYY-MM-DD`: the same date in any hotel's zone within ±11 hours.
    static func millis(_ day: String) throws -> Int64 {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        guard parts.count == 3, day.count == 10,
            let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))
        else { throw CLIError("'\(day)' is not a date like 2027-02-01") }
        return Int64(date.timeIntervalSince1970 * 1000)
    }

    static func day(_ millis: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/Zurich")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: Date(timeIntervalSince1970: Double(millis) / 1000))
    }
}
