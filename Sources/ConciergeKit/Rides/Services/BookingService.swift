public import ConciergeModels
public import Foundation

extension Rides {
    /// Booking rides and reading them back.
    ///
    /// ```swift
    /// let response = try await BookingService.shared.createBooking(
    ///     pickupPlaceId: "gz_iata_ZRH", pickupDescription: "Zurich Airport",
    ///     destinationPlaceId: "gz_geo_2657896", destinationDescription: "Zürich",
    ///     dateTime: "2027-01-15T13:00:00.000Z", passengers: 2, vehicleClass: "business",
    ///     flightNumber: "LX123", sessionToken: sessionToken)
    /// let checkout = URL(string: response.checkoutUrl ?? "")
    /// ```
    public struct BookingService: Sendable {
        /// Talks to `Concierge.configure(baseURL:)`'s server: `BookingService.shared.createBooking(…)`.
        public static var shared: BookingService { BookingService(client: .configured) }

        /// The server connection: `service.client.baseURL`.
        public let client: ConciergeClient

        /// `BookingService(client: ConciergeClient(baseURL: url))` for a server of its own.
        public init(client: ConciergeClient) {
            self.client = client
        }

        /// Books a ride. Each call carries its own `Idempotency-Key`, reused when the call retries
        /// after a network failure, so a lost answer never books twice.
        public func createBooking(
            pickupPlaceId: String, pickupDescription: String, destinationPlaceId: String,
            destinationDescription: String,
            dateTime: String, passengers: Int?, vehicleClass: String, flightNumber: String?, sessionToken: String?
        ) async throws(BookingError) -> BookingResponse {
            guard let sessionToken, !sessionToken.isEmpty else { throw .missingSessionToken }
            guard !pickupPlaceId.isEmpty, !destinationPlaceId.isEmpty else { throw .missingPlaceId }
            let request = BookingRequest(
                pickup: BookingLocation(placeId: pickupPlaceId, description: pickupDescription),
                destination: BookingLocation(placeId: destinationPlaceId, description: destinationDescription),
                dateTime: dateTime, passengers: passengers, vehicleClass: vehicleClass.toVehicleClass,
                flightNumber: flightNumber.flatMap { $0.isEmpty ? nil : $0 })
            let key = UUID().uuidString
            do throws(BookingError) {
                return try await send(request, key: key, token: sessionToken)
            } catch {
                guard case .networkError = error else { throw error }
                // The answer may have been lost after the server booked: the same key returns it.
                return try await send(request, key: key, token: sessionToken)
            }
        }

        /// The guide's form: `dateTime` as a `Date`, converted to ISO 8601 UTC (`…000Z`).
        public func createBooking(
            pickupPlaceId: String, pickupDescription: String, destinationPlaceId: String,
            destinationDescription: String,
            dateTime: Date, passengers: Int?, vehicleClass: String, flightNumber: String?, sessionToken: String?
        ) async throws(BookingError) -> BookingResponse {
            try await createBooking(
                pickupPlaceId: pickupPlaceId, pickupDescription: pickupDescription,
                destinationPlaceId: destinationPlaceId,
                destinationDescription: destinationDescription, dateTime: SwissDateTime.utcISO8601(from: dateTime),
                passengers: passengers, vehicleClass: vehicleClass, flightNumber: flightNumber,
                sessionToken: sessionToken)
        }

        private func send(_ request: BookingRequest, key: String, token: String) async throws(BookingError)
            -> BookingResponse
        {
            try await client.send(
                "POST", "rides/app-book", body: request, token: token, headers: ["Idempotency-Key": key])
        }

        /// The customer's bookings, newest first.
        public func bookings(sessionToken: String, limit: Int = 20, offset: Int = 0) async throws(BookingError)
            -> BookingListResponse
        {
            try await client.send(
                "GET", "rides/bookings",
                query: [
                    URLQueryItem(name: "limit", value: String(limit)),
                    URLQueryItem(name: "offset", value: String(offset)),
                ],
                token: sessionToken)
        }

        /// One of the customer's bookings: `try await BookingService.shared.booking(reference: "VRM-123456", sessionToken: token)`.
        public func booking(reference: String, sessionToken: String) async throws(BookingError) -> BookingSummary {
            try await client.send(
                "GET", "rides/bookings/\(reference)", token: sessionToken, as: BookingDetailResponse.self
            )
            .booking
        }

        /// Cancels; free until 24 h before pickup (refunded), later `validationError` with the policy.
        public func cancel(reference: String, sessionToken: String) async throws(BookingError) -> BookingSummary {
            try await client.send(
                "POST", "rides/bookings/\(reference)/cancel", token: sessionToken, as: BookingDetailResponse.self
            ).booking
        }
    }
}
