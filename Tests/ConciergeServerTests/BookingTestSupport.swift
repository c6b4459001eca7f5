import ConciergeModels
import ConciergeTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// Booking helpers: the app's own calls, as the rides app makes them.
extension TestClientProtocol {
    /// Signs in and sets an email, so confirmations go by email.
    func signedInCustomer(phone: String = "+41791234567", email: String? = "anna@example.ch") async throws -> String {
        let token = try await signIn(phone: phone).sessionToken
        if let email {
            _ = try await send(.patch, "/rides/me", json: #"{"email": "\#(email)"}"#, token: token)
        }
        return token
    }

    func book(
        token: String, pickupAt: Date, vehicleClass: String = "business", passengers: Int? = nil,
        from: String = "gz_iata_ZRH", to: String = "gz_geo_2657896", flight: String? = nil, key: String? = nil
    ) async throws -> TestResponse {
        let request = BookingRequest(
            pickup: BookingLocation(placeId: from, description: "Pickup"),
            destination: BookingLocation(placeId: to, description: "Destination"),
            dateTime: WireDate.string(from: pickupAt), passengers: passengers, vehicleClass: vehicleClass,
            flightNumber: flight)
        var headers: HTTPFields = [:]
        if let key { headers[.init("Idempotency-Key")!] = key }
        let json = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        return try await send(.post, "/rides/app-book", json: json, token: token, headers: headers)
    }

    /// Presses a button on the sandbox checkout page; returns where the browser is sent.
    func checkout(_ checkoutURL: String, outcome: String) async throws -> TestResponse {
        let path = try #require(URL(string: checkoutURL)?.path)
        return try await execute(
            uri: path, method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: "outcome=\(outcome)"))
    }

    func outboxMessages() async throws -> [[String: Any]] {
        let outbox = try await send(.get, "/dev/outbox")
        let listing = try JSONSerialization.jsonObject(with: Data(buffer: outbox.body)) as? [String: Any]
        return listing?["messages"] as? [[String: Any]] ?? []
    }

    func emails(subjectContaining text: String) async throws -> [[String: Any]] {
        try await outboxMessages().filter {
            ($0["channel"] as? String) == "email" && (($0["subject"] as? String)?.contains(text) ?? false)
        }
    }

    func bookingStatus(_ reference: String, token: String) async throws -> String? {
        try await send(.get, "/rides/bookings/\(reference)", token: token).decode(BookingDetailResponse.self).booking
            .status
    }
}

func require<T>(_ value: T?) throws -> T { try #require(value) }
