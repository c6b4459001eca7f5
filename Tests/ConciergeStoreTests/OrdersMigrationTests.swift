import ConciergeCore
import ConciergeStore
import ConciergeTestSupport
import Foundation
import Testing

/// A database from before the ledger keeps its bookings: each becomes a rides order with its
/// payment in the ledger (the sandbox's state included) and its idempotency answer in the
/// rides scope.
@Suite struct OrdersMigrationTests {
    @Test(arguments: TestEngine.all)
    func existingBookingsBecomeOrdersWithTheirPaymentsAndKeys(engine: TestEngine) async throws {
        let database = try await engine.openEmpty()
        _ = try await Migrator(database: database, groups: [.core]).migrate()
        let at = SQLValue(Date(timeIntervalSince1970: 1_790_000_000))
        try await database.query(
            "INSERT INTO customers (id, phone, name, email, created_at) VALUES ('cus_1', '+41790000001', NULL, NULL, ?)",
            [at])
        try await database.query(
            """
            INSERT INTO bookings (id, reference, public_secret, customer_id, pickup_place_id, pickup_description,
                pickup_name, pickup_kind, pickup_time_zone, destination_place_id, destination_description,
                destination_name, destination_kind, destination_time_zone, pickup_at, passengers, vehicle_class,
                price_cents, currency, distance_meters, duration_seconds, state, quote_expires_at, created_at,
                payment_provider, payment_id, checkout_url, payment_status)
            VALUES ('bkg_1', 'VRM-123456', 'secret', 'cus_1', 'a', 'A', 'A', 'city', 'Europe/Zurich', 'b', 'B', 'B',
                'city', 'Europe/Zurich', ?, 2, 'business', 9500, 'CHF', 1000, 600, 'confirmed', ?, ?,
                'sandbox', 'sbx_1', 'http://x/sandbox/checkout/sbx_1', 'paid')
            """, [at, at, at])
        try await database.query(
            """
            INSERT INTO sandbox_payments
                (id, amount_cents, currency, description, redirect_url, status, refunded_cents, metadata, created_at, expires_at)
            VALUES ('sbx_1', 9500, 'CHF', 'Concierge ride VRM-123456', 'http://x/return', 'paid', 0,
                '{"bookingReference":"VRM-123456"}', ?, ?)
            """, [at, at])
        try await database.query(
            """
            INSERT INTO idempotency_keys (customer_id, key, request_hash, response, created_at)
            VALUES ('cus_1', 'k1', 'h1', 'the first answer', ?)
            """, [at])

        _ = try await Migrator(database: database).migrate()

        let order = try #require(try await SQLOrderStore(database: database).order(reference: "VRM-123456"))
        #expect(order.id == "bkg_1")
        #expect(order.vertical == "rides")
        #expect(order.accountID == "cus_1")
        #expect(order.state == "confirmed")
        #expect(
            order.lines == [OrderLine(kind: "ride", description: "Ride, business", quantity: 1, unitAmountCents: 9500)])
        let payment = try #require(
            try await SQLPaymentLedger(database: database).payment(provider: "sandbox", providerPaymentID: "sbx_1"))
        #expect(payment.orderID == "bkg_1")
        #expect(payment.ownerVertical == "rides")
        #expect(payment.status == .paid)
        #expect(payment.redirectURL == "http://x/return")
        #expect(payment.metadata == ["bookingReference": "VRM-123456"])
        let booking = try #require(try await SQLBookingStore(database: database).booking(reference: "VRM-123456"))
        #expect(booking.paymentID == "sbx_1")
        #expect(booking.checkoutURL == "http://x/sandbox/checkout/sbx_1")
        #expect(booking.paymentRecordID == payment.id)
        let replay = try await SQLIdempotencyKeys(database: database).lookUp(
            IdempotencyClaimRequest(
                scope: BookingService.idempotencyScope, accountID: "cus_1", key: "k1", requestHash: "h1",
                now: Date(), staleBefore: Date()))
        #expect(replay == .replay(response: "the first answer"))
        try await database.close()
    }
}
