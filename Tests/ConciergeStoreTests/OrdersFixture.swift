import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation

/// Orders, payments and ride bookings over a real database on one engine, with ids, references
/// and secrets from a seeded source so each test can name what it expects.
struct OrdersFixture {
    let database: any SQLDatabase
    let random = SeededRandomSource(seed: 7)
    let orders: SQLOrderStore
    let ledger: SQLPaymentLedger
    let keys: SQLIdempotencyKeys
    let bookings: SQLBookingStore
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let customerID = "cus_orders"

    init(engine: TestEngine) async throws {
        database = try await engine.makeDatabase()
        orders = SQLOrderStore(database: database)
        ledger = SQLPaymentLedger(database: database)
        keys = SQLIdempotencyKeys(database: database)
        bookings = SQLBookingStore(database: database)
        // Ride bookings belong to a rides customer.
        try await database.query(
            "INSERT INTO customers (id, phone, name, email, created_at) VALUES (?, '+41790000001', 'Anna', NULL, ?)",
            [.text(Self.customerID), SQLValue(Self.now)])
    }

    func close() async throws { try await database.close() }

    /// An order of two lines (one of them twice) with a reference drawn from the rides generator.
    func order(vertical: String = "events", reference: OrderReference? = nil) -> Order {
        Order(
            id: random.identifier(prefix: "ord"), vertical: vertical, accountID: Self.customerID,
            reference: reference ?? BookingService.references.candidate(attempt: 0, random: random), amountCents: 9_000,
            currency: "CHF", state: "reserved",
            lines: [
                OrderLine(kind: "seat", description: "Row 4, seat 12", quantity: 2, unitAmountCents: 4_000),
                OrderLine(kind: "fee", description: "Booking fee", quantity: 1, unitAmountCents: 1_000),
            ], createdAt: Self.now)
    }

    func created(_ order: Order) -> OrderEvent {
        OrderEvent(orderID: order.id, at: Self.now, type: "created", actor: "customer:\(Self.customerID)", detail: "")
    }

    /// Writes `order` in a transaction of its own; false when its reference was taken.
    @discardableResult
    func insert(_ order: Order) async throws -> Bool {
        let event = created(order)
        return try await database.transaction { db in try await SQLOrderStore.insert(order, event: event, in: db) }
    }

    /// A payment of `order` as `provider` opened it.
    func payment(of order: Order, provider: String = "mollie", providerID: String? = nil) -> PaymentRecord {
        let request = PaymentRequest(
            amountCents: order.amountCents, currency: order.currency, description: "Order \(order.reference.code)",
            redirectURL: "https://concierge.example/return", webhookURL: "https://concierge.example/webhook",
            expiresAt: Self.now.addingTimeInterval(900), metadata: ["orderReference": order.reference.code])
        let providerPaymentID = providerID ?? random.identifier(prefix: "tr")
        return PaymentRecord(
            id: random.identifier(prefix: "pay"), provider: provider,
            created: CreatedPayment(
                id: providerPaymentID, checkoutURL: "https://pay.example/\(providerPaymentID)", status: .open),
            request: request, ownerVertical: order.vertical, orderID: order.id, createdAt: Self.now)
    }

    /// Everything a new ride booking writes, with the answer its key would replay.
    func newBooking(reference: OrderReference? = nil, key: String?, answer: String = #"{"success":true}"#)
        -> NewBooking
    {
        let id = random.identifier(prefix: "bkg")
        let reference = reference ?? BookingService.references.candidate(attempt: 0, random: random)
        let place = BookedPlace(
            placeId: "zrh-airport", description: "Zurich Airport", name: "Zurich Airport", kind: .airport,
            timeZone: "Europe/Zurich")
        let booking = Booking(
            id: id, reference: reference.code, publicSecret: reference.secret, customerID: Self.customerID,
            pickup: place, destination: place, pickupAt: Self.now.addingTimeInterval(86_400), passengers: 2,
            vehicleClass: .business, flightNumber: nil, priceCents: 12_000, currency: "CHF", distanceMeters: 12_000,
            durationSeconds: 1_200, state: .awaitingPayment, quoteExpiresAt: Self.now.addingTimeInterval(900),
            createdAt: Self.now, paymentProvider: "sandbox", paymentID: nil, checkoutURL: nil, paymentStatus: .open)
        let order = Order(
            id: id, vertical: BookingService.vertical, accountID: Self.customerID, reference: reference,
            amountCents: 12_000, currency: "CHF", state: BookingState.awaitingPayment.rawValue,
            lines: [OrderLine(kind: "ride", description: "Ride, business", quantity: 1, unitAmountCents: 12_000)],
            createdAt: Self.now)
        return NewBooking(
            booking: booking, order: order,
            event: BookingEvent(bookingID: id, at: Self.now, type: "created", actor: "customer", detail: "business"),
            payment: payment(of: order, provider: "sandbox"),
            idempotency: key.map {
                IdempotencyAnswer(claim: claim($0, scope: BookingService.idempotencyScope), response: answer)
            })
    }

    func claim(_ key: String, scope: String, hash: String = "h1", at seconds: TimeInterval = 0)
        -> IdempotencyClaimRequest
    {
        let now = Self.now.addingTimeInterval(seconds)
        return IdempotencyClaimRequest(
            scope: scope, accountID: Self.customerID, key: key, requestHash: hash, now: now,
            staleBefore: now.addingTimeInterval(-120))
    }

    /// How many rows `table` has.
    func count(_ table: String) async throws -> Int {
        try await database.query("SELECT COUNT(*) AS n FROM \(table)").first?.int("n") ?? -1
    }
}
