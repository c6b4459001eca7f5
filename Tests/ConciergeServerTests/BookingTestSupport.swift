import ConciergeModels
import ConciergeTestSupport
import Crypto
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

/// Provider webhooks and the admin view, as the providers and the operators call them.
extension TestClientProtocol {
    /// What Mollie posts: only the payment's id.
    func mollieWebhook(id: String) async throws -> TestResponse {
        try await execute(
            uri: "/payments/mollie/webhook", method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "id=\(id)"))
    }

    /// A `checkout.session.completed` event signed as Stripe signs it.
    func stripeCheckoutCompleted(eventID: String, sessionID: String, secret: String, at date: Date) async throws
        -> TestResponse
    {
        let payload =
            #"{"id":"\#(eventID)","type":"checkout.session.completed","data":{"object":{"id":"\#(sessionID)","object":"checkout.session","payment_status":"paid"}}}"#
        let timestamp = Int(date.timeIntervalSince1970)
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("\(timestamp).\(payload)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        let signature = mac.map { String(format: "%02x", $0) }.joined()
        return try await execute(
            uri: "/payments/stripe/webhook", method: .post,
            headers: [.contentType: "application/json", .init("Stripe-Signature")!: "t=\(timestamp),v1=\(signature)"],
            body: ByteBuffer(string: payload))
    }

    /// A booking with its event log, through the admin API (`CONCIERGE_ADMIN_TOKEN` = `adminToken`).
    func adminBooking(_ reference: String, adminToken: String) async throws -> AdminBookingResponse {
        let response = try await send(.get, "/admin/bookings/\(reference)", token: adminToken)
        guard response.status == .ok else { throw TestFailure("admin booking: \(response.status)") }
        return try response.decode(AdminBookingResponse.self)
    }
}

func require<T>(_ value: T?) throws -> T { try #require(value) }
