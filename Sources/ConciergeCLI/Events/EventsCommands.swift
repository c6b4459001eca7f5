public import ConciergeKit
import ConciergeModels
import Foundation

/// The events commands of the CLI, as functions that return what to print: tables for people,
/// `--json` for scripts, one-line errors. The executable only parses arguments and prints.
public struct EventsCommands: Sendable {
    public let client: EventsClient
    public let json: Bool

    public init(client: EventsClient, json: Bool) {
        self.client = client
        self.json = json
    }

    public func signUp(email: String, password: String, name: String) async throws -> String {
        let response = try await run { try await client.signUp(email: email, password: password, name: name) }
        if json { return try Self.encode(response) }
        return
            "Signed up as \(response.user?.email ?? email). Open the link we emailed you to confirm the address before buying."
    }

    public func signIn(email: String, password: String) async throws -> String {
        let response = try await run { try await client.signIn(email: email, password: password) }
        if json { return try Self.encode(response) }
        let verified = response.user?.emailVerified == true ? "" : " (email not confirmed yet)"
        return "Signed in as \(response.user?.email ?? email)\(verified)."
    }

    public func verifyEmail(token: String, email: String) async throws -> String {
        try await run { try await client.verifyEmail(token: token, email: email) }
        return json ? #"{"success":true}"# : "Email \(email) confirmed."
    }

    public func shows(search: String?) async throws -> String {
        let shows = try await run { try await client.shows(EventsShowQuery(text: search)) }
        if json { return try Self.encode(shows) }
        guard !shows.isEmpty else { return "No upcoming shows\(search.map { " match '\($0)'" } ?? "")." }
        return Table(
            headers: ["ID", "DATE", "TIME", "TITLE", "VENUE", "FROM", "FREE"],
            rows: shows.map { show -> [String] in
                let from = "\(show.currency) \(show.min_price)"
                return [
                    show.id, show.date, String(show.time.prefix(5)), show.title, show.venue_name, from,
                    String(show.availableSeats),
                ]
            }
        ).render()
    }

    public func show(id: String) async throws -> String {
        let show = try await run { try await client.show(id: id) }
        if json { return try Self.encode(show) }
        var lines = [
            "\(show.title)  (\(show.status.rawValue))", "When:  \(show.date) \(show.time.prefix(5)) (\(show.timeZone))",
            "Where: \(show.venue_name), \(show.location)", "Free:  \(show.availableSeats) seats", "",
        ]
        lines.append(
            Table(
                headers: ["CATEGORY", "SECTION", "PRICE"],
                rows: show.seat_pricing.map { [$0.category, $0.section, "\(show.currency) \($0.price)"] }
            ).render())
        return lines.joined(separator: "\n")
    }

    /// Free seats per row (`--all` lists every seat with its state).
    public func seats(showID: String, all: Bool) async throws -> String {
        let seats = try await run { try await client.seats(showID: showID) }
        if json { return try Self.encode(seats) }
        if all {
            return Table(
                headers: ["SEAT", "SECTION", "ROW", "NO", "PRICE", "STATUS"],
                rows: seats.map {
                    [$0.id, $0.section, $0.row, $0.number, "\($0.currency) \($0.price)", $0.status.rawValue]
                }
            ).render()
        }
        var rows: [[String]] = []
        var seen: [String: Int] = [:]
        for seat in seats where seat.status == .available {
            let key = "\(seat.section)|\(seat.row)"
            if let index = seen[key] {
                rows[index][3] += " \(seat.number)"
            } else {
                seen[key] = rows.count
                rows.append([seat.section, seat.row, "\(seat.currency) \(seat.price)", seat.number])
            }
        }
        guard !rows.isEmpty else { return "No free seats." }
        return Table(headers: ["SECTION", "ROW", "PRICE", "FREE SEATS"], rows: rows).render()
    }

    /// Holds named seats or the best `quantity`, and prints where to pay before the hold lapses.
    public func buy(showID: String, seats: [String], quantity: Int?, section: String?) async throws -> String {
        guard seats.isEmpty != (quantity == nil) else {
            throw CLIError("name seats with --seats A1,A2 or ask for the best ones with --quantity N (one of them)")
        }
        let request = Events.SeatCheckoutRequest(
            showId: showID, specificSeatIds: seats.isEmpty ? nil : seats, quantity: quantity, section: section)
        let checkout = try await run { try await client.seatCheckout(request) }
        if json { return try Self.encode(checkout) }
        return [
            "Held \(checkout.seatIds.joined(separator: ", ")) for \(checkout.currency) \(checkout.totalAmount) until \(checkout.expiresAt).",
            "Pay here: \(checkout.url)", "Order: \(checkout.orderId)",
        ].joined(separator: "\n")
    }

    public func tickets() async throws -> String {
        let bookings = try await run { try await client.bookings() }
        if json { return try Self.encode(bookings) }
        guard !bookings.isEmpty else { return "No bookings yet." }
        return Table(
            headers: ["ORDER", "REFERENCE", "SHOW", "DATE", "SEATS", "TOTAL", "STATUS"],
            rows: bookings.map { booking -> [String] in
                let when = "\(booking.showDate) \(booking.showTime.prefix(5))"
                let seats = booking.seats.map(\.id).joined(separator: " ")
                let total = "\(booking.currency) \(booking.totalAmount)"
                return [booking.id, booking.reference, booking.showTitle, when, seats, total, booking.status.rawValue]
            }
        ).render()
    }

    public func cancel(orderID: String) async throws -> String {
        let result = try await run { try await client.cancelBooking(id: orderID) }
        if json { return try Self.encode(result) }
        return "Order \(orderID) is \(result.status.rawValue)."
    }

    public func signOut() async throws -> String {
        try await run { try await client.signOut() }
        return json ? #"{"success":true}"# : "Signed out."
    }

    /// Turns the SDK's typed errors into one line a person can act on.
    private func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch EventsAPIError.unauthorized {
            throw CLIError("not signed in or the session ended — run `concierge events signin --email …`")
        } catch EventsAPIError.network {
            throw CLIError("the server cannot be reached — is it running? (set --server or CONCIERGE_SERVER)")
        } catch let error as EventsAPIError {
            throw CLIError(error.message)
        }
    }

    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
