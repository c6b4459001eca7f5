public import ConciergeKit
import ConciergeModels
import Foundation

/// The rides commands of the CLI, as functions that return what to print. The executable only
/// parses arguments and prints; tests call these directly against a live server.
public struct RidesCommands: Sendable {
    public let client: ConciergeClient
    public let manager: AuthenticationManager
    public let json: Bool

    public init(client: ConciergeClient, manager: AuthenticationManager, json: Bool) {
        self.client = client
        self.manager = manager
        self.json = json
    }

    /// Sends the code, asks for it with `readCode`, signs in and stores the session.
    /// `preparing` runs between sending and asking (tests fetch the code from the dev outbox there).
    public func login(
        phone: String, readCode: @Sendable () -> String?, preparing: @Sendable () async throws -> Void = {}
    ) async throws -> String {
        let auth = VeramoAuthService(client: client)
        let sent = try await auth.requestSMSCode(phone: phone)
        try await preparing()
        guard let code = readCode()?.trimmingCharacters(in: .whitespacesAndNewlines), !code.isEmpty else {
            throw CLIError(
                "no code entered — run `concierge rides login` again when the SMS arrives (it is valid \(sent.expiresInSeconds / 60) minutes)"
            )
        }
        let response = try await auth.verify(phone: phone, code: code)
        manager.saveAuthentication(
            customer: response.customer, sessionToken: response.sessionToken,
            expiresAt: SwissDateTime.parse(response.expiresAt))
        if json { return try Self.encode(response.customer) }
        return "Signed in as \(response.customer.phone). The session is valid until \(response.expiresAt)."
    }

    public func logout() async -> String {
        await VeramoAuthService(client: client).logout(manager: manager)
        return json ? #"{"success":true}"# : "Signed out."
    }

    public func places(_ text: String) async throws -> String {
        let suggestions = try await PlacesService(client: client).autocomplete(text)
        if json { return try Self.encode(suggestions) }
        guard !suggestions.isEmpty else { return "No places match '\(text)'." }
        return Table(
            headers: ["PLACE ID", "KIND", "NAME", "WHERE"],
            rows: suggestions.map {
                [$0.placeId, $0.kind, $0.mainText, $0.secondaryText]
            }
        ).render()
    }

    public func price(from: String, to: String, at: String) async throws -> String {
        // The time is checked first: a typo there should not wait for the network.
        let pickup = try Self.swissTime(at)
        let (origin, destination) = try await (resolve(from), resolve(to))
        let pricing = try await PricingService(client: client).fetchPricing(
            originPlaceId: origin.id, destinationPlaceId: destination.id, pickupDatetime: pickup)
        if json { return try Self.encode(pricing) }
        var lines = [
            "\(origin.name) → \(destination.name), \(at) (Zurich time)",
            "\(pricing.distanceKm) km, about \(pricing.durationMinutes) minutes", "",
        ]
        let classes: [(String, VehiclePrice)] = [
            ("business", pricing.prices.business), ("first", pricing.prices.first), ("xl", pricing.prices.xl),
        ]
        lines.append(
            Table(
                headers: ["CLASS", "PRICE", "VEHICLE", "SEATS"],
                rows: classes.map { [$0.0, $0.1.priceFormatted, $0.1.vehicle, String($0.1.maxPassengers)] }
            ).render())
        if !pricing.adjustments.isEmpty {
            let included = pricing.adjustments.map { adjustment in
                adjustment.percent.map { "\(adjustment.label) +\($0)%" } ?? adjustment.label
            }
            lines.append("Included: " + included.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    public func book(from: String, to: String, at: String, vehicleClass: String, passengers: Int, flight: String?)
        async throws -> String
    {
        let token = try requireSession()
        let pickup = try Self.swissTime(at)
        let (origin, destination) = try await (resolve(from), resolve(to))
        let response = try await BookingService(client: client).createBooking(
            pickupPlaceId: origin.id, pickupDescription: origin.name, destinationPlaceId: destination.id,
            destinationDescription: destination.name, dateTime: pickup, passengers: passengers,
            vehicleClass: vehicleClass, flightNumber: flight, sessionToken: token)
        if json { return try Self.encode(response) }
        return """
            Booked \(response.quoteReference ?? "?"): \(response.priceFormatted ?? "?") for \(vehicleClass) from \(origin.name) to \(destination.name).
            Pay within 30 minutes to confirm: \(response.checkoutUrl ?? "?")
            """
    }

    public func bookings() async throws -> String {
        let list = try await BookingService(client: client).bookings(sessionToken: try requireSession())
        if json { return try Self.encode(list) }
        guard !list.bookings.isEmpty else { return "No bookings yet. Book with `concierge rides book`." }
        return Table(
            headers: ["REFERENCE", "STATUS", "PICKUP (UTC)", "FROM", "TO", "PRICE"],
            rows: list.bookings.map {
                [
                    $0.reference, $0.status, $0.pickupDatetime, $0.pickup.description, $0.destination.description,
                    $0.priceFormatted,
                ]
            }
        ).render()
    }

    public func show(_ reference: String) async throws -> String {
        let booking = try await BookingService(client: client).booking(
            reference: reference, sessionToken: try requireSession())
        return try describe(booking)
    }

    public func cancel(_ reference: String) async throws -> String {
        let booking = try await BookingService(client: client).cancel(
            reference: reference, sessionToken: try requireSession())
        return try describe(booking)
    }

    private func describe(_ booking: BookingSummary) throws -> String {
        if json { return try Self.encode(booking) }
        var lines = [
            "\(booking.reference)  \(booking.status)",
            "From:  \(booking.pickup.description)", "To:    \(booking.destination.description)",
            "When:  \(booking.pickupDatetime) (UTC)",
            "Class: \(booking.vehicleClass), \(booking.passengers) passenger(s)",
            "Price: \(booking.priceFormatted)",
        ]
        if let driver = booking.driver {
            lines.append("Driver: \(driver.name), \(driver.phone), \(driver.vehicle) \(driver.plate)")
        }
        if let url = booking.checkoutUrl { lines.append("Pay at: \(url)") }
        return lines.joined(separator: "\n")
    }

    // MARK: Helpers

    private func requireSession() throws -> String {
        guard let token = manager.sessionToken else {
            throw CLIError("not signed in — run `concierge rides login --phone +41…`")
        }
        return token
    }

    /// A place ID as given, or the best suggestion for the text.
    private func resolve(_ text: String) async throws -> (id: String, name: String) {
        if text.hasPrefix("gz_") || text.hasPrefix("ChIJ") {
            let place = try await PlacesService(client: client).details(placeId: text)
            return (place.placeId, place.name)
        }
        guard let first = try await PlacesService(client: client).autocomplete(text).first else {
            throw CLIError("no place matches '\(text)' — try `concierge rides places \(text)`")
        }
        return (first.placeId, first.mainText)
    }

    /// "2027-01-15 14:00" in Zurich time → UTC ISO 8601.
    static func swissTime(_ text: String) throws -> String {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
        let date = parts.first?.split(separator: "-").compactMap { Int($0) } ?? []
        let time = parts.count > 1 ? parts[1].split(separator: ":").compactMap { Int($0) } : []
        guard date.count == 3, time.count == 2,
            let utc = SwissDateTime.utcISO8601(
                year: date[0], month: date[1], day: date[2], hour: time[0], minute: time[1])
        else { throw CLIError("'\(text)' is not a time — write it like \"2027-01-15 14:00\" (Zurich time)") }
        return utc
    }

    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A failure the CLI explains in a line and exits non-zero for.
public struct CLIError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// What to print for any error, one or two lines, never a stack trace.
    public static func message(for error: any Error) -> String {
        switch error {
        case let error as CLIError: error.description
        case BookingError.unauthorized:
            "not signed in or the session expired — run `concierge rides login --phone +41…`"
        case BookingError.networkError:
            "the server cannot be reached — is it running? (set --server or CONCIERGE_SERVER)"
        case let error as BookingError: error.errorDescription ?? "\(error)"
        default: "\(error)"
        }
    }
}
