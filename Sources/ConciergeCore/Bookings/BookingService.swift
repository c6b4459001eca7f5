import ConciergeModels
import Foundation

/// Ride bookings: creation with the server's own price, payment, expiry, cancellation. Payment,
/// expiry and cancellation are the platform's `OrderLifecycle` (`BookingService+Payments.swift`);
/// dispatch moves a confirmed ride on through `BookingStore.transition`. Both are conditional
/// writes, so a change happens once however many webhooks, return visits and workers race for it.
public struct BookingService: Sendable {
    /// The vertical's name in orders and payments.
    public static let vertical = "rides"
    /// The route `Idempotency-Key`s of ride bookings belong to.
    public static let idempotencyScope = "rides.app-book"
    /// `VRM-` and ten digits to start with, growing when the space gets crowded.
    public static let references = OrderReferenceGenerator(prefix: "VRM-", minimumDigits: 10)

    let store: any BookingStore
    let idempotencyKeys: any IdempotencyKeyStore
    let orders: any OrderStore
    let pricing: RidePricingService
    let tariff: Tariff
    let payments: any PaymentProvider
    let rules: BookingRules
    /// The platform's per-customer limits, with rides' numbers.
    let limits: OrderLimitChecker
    let clock: any TimeSource
    let random: any RandomSource
    /// Builds the return page URL for a booking (reference and secret).
    let returnURL: @Sendable (Booking) -> String
    let webhookURL: String
    let contact: @Sendable (String) async throws -> Customer?
    /// The customer messages' texts (`BookingMessages.swift`).
    let templates: any MessageTemplates
    /// The platform's order lifecycle: payments, expiry, cancellations and refunds of rides.
    let lifecycle: OrderLifecycle

    public init(
        store: any BookingStore, idempotencyKeys: any IdempotencyKeyStore, orders: any OrderStore,
        pricing: RidePricingService, tariff: Tariff, payments: any PaymentProvider, rules: BookingRules,
        limits: OrderLimitChecker, clock: any TimeSource, random: any RandomSource,
        returnURL: @escaping @Sendable (Booking) -> String,
        webhookURL: String, contact: @escaping @Sendable (String) async throws -> Customer?,
        templates: any MessageTemplates, lifecycle: OrderLifecycle
    ) {
        self.store = store
        self.idempotencyKeys = idempotencyKeys
        self.orders = orders
        self.pricing = pricing
        self.tariff = tariff
        self.payments = payments
        self.rules = rules
        self.limits = limits
        self.clock = clock
        self.random = random
        self.returnURL = returnURL
        self.webhookURL = webhookURL
        self.contact = contact
        self.templates = templates
        self.lifecycle = lifecycle
    }

    // MARK: Creating

    /// Keys answer repeats for a day.
    static let idempotencyKeyLifetime: TimeInterval = 86_400
    /// Longer than any booking request takes, provider timeouts included: an unanswered claim
    /// this old belongs to a server that died mid-request.
    static let idempotencyClaimLifetime: TimeInterval = 120

    /// Forgets keys older than a day. The background service runs it, not each request.
    public func pruneIdempotencyKeys() async throws {
        try await idempotencyKeys.prune(before: clock.now.addingTimeInterval(-Self.idempotencyKeyLifetime))
    }

    /// Validates, prices and opens the payment, and writes no booking yet: the caller renders
    /// its answer from the draft and hands both to `commit`. With an `idempotencyKey`, a repeat of
    /// the same request gets `replay` with the first answer instead of booking twice.
    /// `clientIP` counts the request against the per-network limit on order-creating routes.
    public func prepare(
        _ input: BookingRequestInput, customer: Customer, idempotencyKey: String?, clientIP: String
    ) async throws -> BookingPreparation {
        try await limits.admit(clientIP: clientIP)
        let now = clock.now
        var claim: IdempotencyClaimRequest?
        if let key = idempotencyKey {
            guard (1...255).contains(key.count) else {
                throw ConciergeError(
                    .invalidInput, code: "invalid_idempotency_key",
                    message: "The Idempotency-Key must be 1 to 255 characters.")
            }
            let request = IdempotencyClaimRequest(
                scope: Self.idempotencyScope, accountID: customer.id, key: key, requestHash: input.fingerprint,
                now: now, staleBefore: now.addingTimeInterval(-Self.idempotencyClaimLifetime))
            claim = request
        }
        // The key is claimed later: in the statement that writes the booking (where a repeat
        // finds it taken and gets the first answer), or on its own just before an outside
        // provider is called. Not looking first saves a round trip on every booking.
        do {
            // A payment opened locally costs nothing to redo, so its reference is checked by the
            // write itself; an outside provider's payment is opened only for a free reference.
            return try await draft(
                input, customer: customer, claim: claim, now: now, checkReference: !payments.opensPaymentsLocally)
        } catch let refusal as ConciergeError {
            // A repeat gets its first answer even if the request would no longer pass the rules
            // (its pickup has come closer since).
            if let claim, let existing = try await idempotencyKeys.lookUp(claim) {
                return .replay(answer: try Self.answer(existing))
            }
            throw refusal
        }
    }

    /// Writes the draft — order, booking, payment record and the answer `render` makes of it for
    /// its idempotency key — in one commit, and returns the answer to send: that one, or the first
    /// answer when a concurrent repeat of the request got there first. If nothing could be
    /// written, the payment opened for the draft is cancelled and the key stays free.
    ///
    /// A reference drawn without looking (the sandbox's) that turns out taken is drawn again, this
    /// time looking first, which also grows the code when the space is crowded.
    public func commit(_ draft: BookingDraft, render: (Booking) throws -> String) async throws -> String {
        var draft = draft
        while true {
            let answer: String
            let insertion: BookingInsertion
            do {
                answer = try render(draft.booking)
                insertion = try await store.insertBooking(
                    NewBooking(
                        booking: draft.booking, order: draft.order, event: draft.event, payment: draft.payment,
                        idempotency: draft.claim.map {
                            IdempotencyAnswer(claim: $0, response: answer, claimedBefore: draft.claimedBefore)
                        }))
            } catch {
                await abandon(draft)
                throw error
            }
            switch insertion {
            case .inserted:
                return answer
            case .keyTaken(let holder):
                // The key is someone else's now: cancel our payment but leave their claim alone.
                try? await payments.cancelPayment(id: draft.payment.providerPaymentID)
                return try Self.answer(holder)
            case .referenceTaken where !draft.referenceChecked:
                try? await payments.cancelPayment(id: draft.payment.providerPaymentID)
                switch try await self.draft(
                    draft.input, customer: draft.customer, claim: draft.claim, now: clock.now, checkReference: true)
                {
                case .replay(let first): return first
                case .draft(let again): draft = again
                }
            case .referenceTaken:
                // Taken between the look and the write: rare enough that the client's retry is
                // the simplest honest answer.
                await abandon(draft)
                throw ConciergeError(
                    .unavailable(retryAfterSeconds: 1), code: "booking_unavailable", message: "Please try again.")
            }
        }
    }

    /// Gives up a draft that will not be committed: nobody may pay for a booking that is gone,
    /// and a key claimed for it is freed so the client's retry runs for real.
    public func abandon(_ draft: BookingDraft) async {
        try? await payments.cancelPayment(id: draft.payment.providerPaymentID)
        if let claim = draft.claim, draft.claimedBefore { await release(claim) }
    }

    private func release(_ claim: IdempotencyClaimRequest) async {
        try? await idempotencyKeys.release(scope: claim.scope, accountID: claim.accountID, key: claim.key)
    }

    /// The answer for a key another request holds.
    private static func answer(_ claim: IdempotencyClaim) throws -> String {
        switch claim {
        case .replay(let response): return response
        case .mismatch:
            throw ConciergeError.idempotencyKeyReused("booking request")
        case .inProgress, .claimed:
            throw ConciergeError(
                .conflict, code: "request_in_progress",
                message: "A booking request with this Idempotency-Key is still being processed. Retry in a moment.")
        }
    }

    /// Checks the rules, prices the ride, draws a free reference and opens the payment.
    private func draft(
        _ input: BookingRequestInput, customer: Customer, claim: IdempotencyClaimRequest?, now: Date,
        checkReference: Bool
    ) async throws -> BookingPreparation {
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
        for (field, text) in [
            ("pickup.description", input.pickupDescription), ("destination.description", input.destinationDescription),
        ] where text.containsControlCharacter {
            throw ConciergeError(
                .invalidInput, code: "invalid_request",
                message: "'\(field)' contains a control character. Send plain text.")
        }
        try await checkBookingCaps(customerID: customer.id)
        let capacity = tariff.classes[vehicleClass]?.maxPassengers ?? 0
        try BookingRules.checkPassengers(input.passengers, capacity: capacity, vehicleClass: vehicleClass)
        let flight = try BookingRules.normalizedFlightNumber(input.flightNumber)

        let ride = try await pricing.price(
            originPlaceId: input.pickupPlaceId, destinationPlaceId: input.destinationPlaceId, pickup: pickupAt)
        guard let price = ride.quote.prices[vehicleClass] else {
            throw ConciergeError(
                .invalidInput, code: "invalid_vehicle_class", message: "This vehicle class has no price.")
        }
        let reference =
            checkReference ? try await freeReference() : Self.references.candidate(attempt: 0, random: random)
        var booking = Booking(
            id: random.identifier(prefix: "bkg"), reference: reference.code, publicSecret: reference.secret,
            customerID: customer.id,
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

        // An outside provider is called before the booking's commit. Claim the key first, in a
        // transaction of its own, so a concurrent repeat is told to wait (409) instead of opening
        // a second payment. The sandbox writes nothing outside the booking's own transaction,
        // which claims the key itself: one commit.
        let claimedBefore = claim != nil && !payments.opensPaymentsLocally
        if let claim, claimedBefore {
            let outcome = try await idempotencyKeys.claim(claim)
            guard outcome == .claimed else { return .replay(answer: try Self.answer(outcome)) }
        }
        // If the provider fails, nothing was written and the key is freed: the retry runs.
        let request = PaymentRequest(
            amountCents: booking.priceCents, currency: booking.currency,
            description: "Concierge ride \(booking.reference)", redirectURL: returnURL(booking),
            webhookURL: webhookURL, expiresAt: booking.quoteExpiresAt,
            metadata: ["bookingReference": booking.reference, "bookingId": booking.id])
        let created: CreatedPayment
        do {
            created = try await payments.createPayment(request)
        } catch {
            if let claim, claimedBefore { await release(claim) }
            throw error
        }
        let payment = PaymentRecord(
            id: random.identifier(prefix: "pay"), provider: payments.name, created: created, request: request,
            ownerVertical: Self.vertical, orderID: booking.id, createdAt: now)
        booking.paymentID = created.id
        booking.checkoutURL = created.checkoutURL
        booking.paymentRecordID = payment.id
        let order = Order(
            id: booking.id, vertical: Self.vertical, accountID: customer.id, reference: reference,
            amountCents: booking.priceCents, currency: booking.currency, state: booking.state.rawValue,
            lines: [
                OrderLine(
                    kind: "ride", description: "Ride, \(vehicleClass.rawValue)", quantity: 1,
                    unitAmountCents: booking.priceCents)
            ], createdAt: now, expiresAt: booking.quoteExpiresAt)
        let event = BookingEvent(
            bookingID: booking.id, at: now, type: "created", actor: "customer:\(customer.id)",
            detail: "\(vehicleClass.rawValue), \(Money.formatCHF(price.priceCents))")
        return .draft(
            BookingDraft(
                booking: booking, order: order, event: event, payment: payment, claim: claim,
                claimedBefore: claimedBefore, input: input, customer: customer, referenceChecked: checkReference))
    }

    /// Security review finding 3: each booking opens a payment at the provider, so one customer
    /// may not flood them. The platform's checker counts rides' orders (`OrderLimits`); rides
    /// keeps its own codes and sentences. A cap of 0 is off (the benchmarks turn both off).
    private func checkBookingCaps(customerID: String) async throws {
        try await limits.check(accountID: customerID, scope: limitScope)
    }

    /// How the platform counts and words rides' orders: a booking is open while it awaits its
    /// payment and its quote holds.
    var limitScope: OrderLimitScope {
        OrderLimitScope(
            vertical: Self.vertical, openStates: [BookingState.awaitingPayment.rawValue],
            openLifetime: Double(rules.quoteLifetimeSeconds), timeZone: TimeZone(identifier: "Europe/Zurich") ?? .gmt,
            wording: OrderLimitWording(
                unpaidCode: "too_many_unpaid_bookings", hourlyCode: "too_many_bookings",
                unpaid: { count, _ in
                    "You have \(count) bookings waiting for payment. Pay or cancel one of them before booking another ride."
                },
                hourly: { count, _ in "You have made \(count) bookings in the last hour. Please try again later." }))
    }

    /// A reference no order has yet. The `orders.reference` constraint still decides at commit;
    /// looking first is what lets the generator grow the code when the space gets crowded.
    private func freeReference() async throws -> OrderReference {
        for attempt in 0..<Self.references.attempts {
            let candidate = Self.references.candidate(attempt: attempt, random: random)
            if try await !orders.isReferenceTaken(candidate.code) { return candidate }
        }
        throw ConciergeError(
            .unavailable(retryAfterSeconds: 1), code: "booking_unavailable", message: "Please try again.")
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

    /// A list shows a lapsed unpaid booking as expired without settling it: settling asks the
    /// provider, and one list must not set off a provider call per booking (security review
    /// finding 21). The worker settles it within its interval.
    public func bookings(customerID: String, limit: Int, offset: Int) async throws -> [Booking] {
        let now = clock.now
        return try await store.bookings(customerID: customerID, limit: limit, offset: offset).map { booking in
            var shown = booking
            if booking.state == .awaitingPayment, now >= booking.quoteExpiresAt { shown.state = .expired }
            return shown
        }
    }

    /// The booking behind a public link, if the secret matches; nil otherwise. The secret is
    /// compared before anything else happens, so a guessed reference sets off no provider call
    /// and answers in the same time as one that does not exist (security review finding 20).
    public func publicBooking(reference: String, secret: String) async throws -> Booking? {
        guard let booking = try await store.booking(reference: reference.uppercased()),
            SecretHasher.constantTimeEquals(secret, booking.publicSecret)
        else { return nil }
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

/// What `BookingService.prepare` found: the first answer of a repeated request, or a new
/// booking to render and commit.
public enum BookingPreparation: Sendable {
    case replay(answer: String)
    case draft(BookingDraft)
}

/// A priced booking with its payment opened, not yet written.
public struct BookingDraft: Sendable {
    /// The booking as it will be stored, checkout URL included: what the answer is made from.
    public let booking: Booking
    let order: Order
    let event: BookingEvent
    let payment: PaymentRecord
    let claim: IdempotencyClaimRequest?
    /// The key was claimed before the provider was called; the commit completes the claim.
    let claimedBefore: Bool
    /// What the draft was made from, to draft again if its reference turns out taken.
    let input: BookingRequestInput
    let customer: Customer
    /// The reference was seen free before the payment was opened.
    let referenceChecked: Bool
}
