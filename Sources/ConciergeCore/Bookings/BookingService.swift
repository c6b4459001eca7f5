import ConciergeModels
import Foundation

/// Ride bookings: creation with the server's own price, payment, expiry, cancellation. Every
/// state change goes through `BookingStore.transition`, a conditional write, so a change happens
/// once however many webhooks, return visits and workers race for it.
public struct BookingService: Sendable {
    public struct Created: Sendable {
        public let booking: Booking
    }

    let store: any BookingStore
    let pricing: RidePricingService
    let tariff: Tariff
    let payments: any PaymentProvider
    let rules: BookingRules
    let clock: any TimeSource
    /// Builds the return page URL for a booking (reference and secret).
    let returnURL: @Sendable (Booking) -> String
    let webhookURL: String
    let contact: @Sendable (String) async throws -> Customer?
    /// The customer messages' texts (`BookingMessages.swift`).
    let templates: any MessageTemplates

    public init(
        store: any BookingStore, pricing: RidePricingService, tariff: Tariff, payments: any PaymentProvider,
        rules: BookingRules, clock: any TimeSource, returnURL: @escaping @Sendable (Booking) -> String,
        webhookURL: String, contact: @escaping @Sendable (String) async throws -> Customer?,
        templates: any MessageTemplates
    ) {
        self.store = store
        self.pricing = pricing
        self.tariff = tariff
        self.payments = payments
        self.rules = rules
        self.clock = clock
        self.returnURL = returnURL
        self.webhookURL = webhookURL
        self.contact = contact
        self.templates = templates
    }

    // MARK: Creating

    /// Keys answer repeats for a day.
    static let idempotencyKeyLifetime: TimeInterval = 86_400
    /// Longer than any booking request takes, provider timeouts included: an unanswered claim
    /// this old belongs to a server that died mid-request.
    static let idempotencyClaimLifetime: TimeInterval = 120

    /// Forgets keys older than a day. The background service runs it, not each request.
    public func pruneIdempotencyKeys() async throws {
        try await store.pruneIdempotencyKeys(before: clock.now.addingTimeInterval(-Self.idempotencyKeyLifetime))
    }

    /// Validates, prices, stores and opens the payment. With an `idempotencyKey`, a repeat of
    /// the same request returns `replay` with the first answer instead of booking twice.
    public func create(
        _ input: BookingRequestInput, customer: Customer, idempotencyKey: String?,
        render: @Sendable (Booking) throws -> String
    ) async throws -> String {
        let now = clock.now
        var claim: IdempotencyClaimRequest?
        if let key = idempotencyKey {
            guard (1...255).contains(key.count) else {
                throw ConciergeError(
                    .invalidInput, code: "invalid_idempotency_key",
                    message: "The Idempotency-Key must be 1 to 255 characters.")
            }
            let request = IdempotencyClaimRequest(
                customerID: customer.id, key: key, requestHash: input.fingerprint, now: now,
                staleBefore: now.addingTimeInterval(-Self.idempotencyClaimLifetime))
            // A repeat gets its first answer even if the request would no longer pass the rules
            // (its pickup has come closer since): look before validating. The key is claimed
            // later, in the transaction that inserts the booking.
            if let existing = try await store.lookUpIdempotencyKey(
                customerID: customer.id, key: key, requestHash: request.requestHash, staleBefore: request.staleBefore)
            {
                return try Self.answer(existing)
            }
            claim = request
        }
        return try await book(input, customer: customer, claim: claim, now: now, render: render)
    }

    /// The answer for a key another request holds.
    private static func answer(_ claim: IdempotencyClaim) throws -> String {
        switch claim {
        case .replay(let response): return response
        case .mismatch:
            throw ConciergeError(
                .conflict, code: "idempotency_key_reused",
                message:
                    "This Idempotency-Key was already used for a different booking request. Use a new key for a new request."
            )
        case .inProgress, .claimed:
            throw ConciergeError(
                .conflict, code: "request_in_progress",
                message: "A booking request with this Idempotency-Key is still being processed. Retry in a moment.")
        }
    }

    /// Books, opens the payment and returns the rendered answer, which is stored for the
    /// idempotency key in the same transaction that records the payment.
    private func book(
        _ input: BookingRequestInput, customer: Customer, claim: IdempotencyClaimRequest?, now: Date,
        render: @Sendable (Booking) throws -> String
    ) async throws -> String {
        guard let vehicleClass = VehicleClass(rawValue: input.vehicleClass.lowercased()) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_vehicle_class",
                message: "'\(input.vehicleClass.prefix(20))' is not a vehicle class. Choose business, first or xl.")
        }
        guard let pickupAt = WireDate.date(from: input.dateTime) else {
            throw ConciergeError(
                .invalidInput, code: "invalid_request",
                message: "'dateTime' must be an ISO 8601 time such as 2025-01-15T13:00:00.000Z.")
        }
        try rules.checkPickupTime(pickupAt, now: now)
        let capacity = tariff.classes[vehicleClass]?.maxPassengers ?? 0
        try BookingRules.checkPassengers(input.passengers, capacity: capacity, vehicleClass: vehicleClass)
        let flight = try BookingRules.normalizedFlightNumber(input.flightNumber)

        let ride = try await pricing.price(
            originPlaceId: input.pickupPlaceId, destinationPlaceId: input.destinationPlaceId, pickup: pickupAt)
        guard let price = ride.quote.prices[vehicleClass] else {
            throw ConciergeError(
                .invalidInput, code: "invalid_vehicle_class", message: "This vehicle class has no price.")
        }

        var booking: Booking?
        for _ in 0..<10 {
            let candidate = Booking(
                id: Randomness.identifier(prefix: "bkg"), reference: "VRM-" + Randomness.digits(6),
                publicSecret: Randomness.token(byteCount: 24), customerID: customer.id,
                pickup: BookedPlace(
                    placeId: ride.origin.placeId, description: Self.describe(input.pickupDescription, ride.origin),
                    name: ride.origin.name, kind: ride.origin.kind, timeZone: ride.origin.timeZone),
                destination: BookedPlace(
                    placeId: ride.destination.placeId,
                    description: Self.describe(input.destinationDescription, ride.destination),
                    name: ride.destination.name, kind: ride.destination.kind, timeZone: ride.destination.timeZone),
                pickupAt: pickupAt, passengers: input.passengers, vehicleClass: vehicleClass, flightNumber: flight,
                priceCents: price.priceCents, currency: "CHF", distanceMeters: ride.route.distanceMeters,
                durationSeconds: ride.route.durationSeconds, state: .awaitingPayment,
                quoteExpiresAt: now.addingTimeInterval(Double(rules.quoteLifetimeSeconds)), createdAt: now,
                paymentProvider: payments.name, paymentID: nil, checkoutURL: nil, paymentStatus: .open)
            let event = BookingEvent(
                bookingID: candidate.id, at: now, type: "created", actor: "customer:\(customer.id)",
                detail: "\(vehicleClass.rawValue), \(Money.formatCHF(price.priceCents))")
            switch try await store.insertBooking(candidate, event: event, claiming: claim) {
            case .inserted: booking = candidate
            case .referenceTaken: continue
            case .keyTaken(let holder): return try Self.answer(holder)
            }
            break
        }
        guard var booking else {
            throw ConciergeError(
                .unavailable(retryAfterSeconds: 1), code: "booking_unavailable", message: "Please try again.")
        }

        var openedPaymentID: String?
        do {
            let payment = try await payments.createPayment(
                PaymentRequest(
                    amountCents: booking.priceCents, currency: booking.currency,
                    description: "Concierge ride \(booking.reference)", redirectURL: returnURL(booking),
                    webhookURL: webhookURL, expiresAt: booking.quoteExpiresAt,
                    metadata: ["bookingReference": booking.reference, "bookingId": booking.id]))
            openedPaymentID = payment.id
            booking.paymentID = payment.id
            booking.checkoutURL = payment.checkoutURL
            let response = try render(booking)
            try await store.attachPayment(
                bookingID: booking.id, provider: payments.name, paymentID: payment.id, checkoutURL: payment.checkoutURL,
                answering: claim.map {
                    IdempotencyAnswer(customerID: $0.customerID, key: $0.key, response: response)
                })
            return response
        } catch {
            // No booking may exist without its payment: undo it and let the customer retry. A
            // payment opened for it is closed, so nobody can pay for a booking that is gone.
            try? await store.deleteBookingWithoutPayment(id: booking.id)
            if let openedPaymentID { try? await payments.cancelPayment(id: openedPaymentID) }
            // A failed attempt leaves the key free, so the client's retry runs for real.
            if let claim { try? await store.releaseIdempotencyKey(customerID: claim.customerID, key: claim.key) }
            throw error
        }
    }

    private static func describe(_ given: String, _ place: PlaceDetails) -> String {
        let trimmed = given.trimmed
        return trimmed.isEmpty ? place.formattedAddress : String(trimmed.prefix(300))
    }

    // MARK: Reading

    /// The customer's own booking; 404 for anyone else's, so references cannot be probed.
    public func booking(reference: String, customerID: String) async throws -> Booking {
        guard let booking = try await store.booking(reference: reference.uppercased()), booking.customerID == customerID
        else { throw Self.notFound(reference) }
        return try await expireIfLapsed(booking)
    }

    public func bookings(customerID: String, limit: Int, offset: Int) async throws -> [Booking] {
        var result: [Booking] = []
        for booking in try await store.bookings(customerID: customerID, limit: limit, offset: offset) {
            result.append(try await expireIfLapsed(booking))
        }
        return result
    }

    /// The booking behind a public link, if the secret matches; nil otherwise.
    public func publicBooking(reference: String) async throws -> Booking? {
        guard let booking = try await store.booking(reference: reference.uppercased()) else { return nil }
        return try await expireIfLapsed(booking)
    }

    public func events(of booking: Booking) async throws -> [BookingEvent] {
        try await store.events(bookingID: booking.id)
    }

    static func notFound(_ reference: String) -> ConciergeError {
        ConciergeError(
            .notFound, code: "booking_not_found",
            message: "You have no booking with the reference '\(reference.prefix(20))'.")
    }
}
