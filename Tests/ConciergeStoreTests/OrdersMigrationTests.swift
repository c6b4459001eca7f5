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

    /// A ride cancelled after payment whose refund rides' old worker had not paid yet is owed
    /// after the upgrade, under the key that worker used, and the platform's worker pays it once.
    @Test(arguments: TestEngine.all)
    func aCancelledRideStillOwedItsRefundIsPaidByThePlatformsWorker(engine: TestEngine) async throws {
        let database = try await engine.openEmpty()
        _ = try await Migrator(database: database, groups: [.core]).migrate()
        let at = SQLValue(Date(timeIntervalSince1970: 1_790_000_000))
        try await database.query(
            "INSERT INTO customers (id, phone, name, email, created_at) VALUES ('cus_1', '+41790000001', NULL, NULL, ?)",
            [at])
        for (id, reference, refunded) in [("bkg_owed", "VRM-200001", 0), ("bkg_done", "VRM-200002", 9500)] {
            try await database.query(
                """
                INSERT INTO bookings (id, reference, public_secret, customer_id, pickup_place_id, pickup_description,
                    pickup_name, pickup_kind, pickup_time_zone, destination_place_id, destination_description,
                    destination_name, destination_kind, destination_time_zone, pickup_at, passengers, vehicle_class,
                    price_cents, currency, distance_meters, duration_seconds, state, quote_expires_at, created_at,
                    payment_provider, payment_id, checkout_url, payment_status)
                VALUES (?, ?, 'secret', 'cus_1', 'a', 'A', 'A', 'city', 'Europe/Zurich', 'b', 'B', 'B',
                    'city', 'Europe/Zurich', ?, 2, 'business', 9500, 'CHF', 1000, 600, 'cancelled', ?, ?,
                    'sandbox', ?, 'http://x/sandbox/checkout/x', 'paid')
                """, [.text(id), .text(reference), at, at, at, .text("sbx_\(id)")])
            try await database.query(
                """
                INSERT INTO sandbox_payments
                    (id, amount_cents, currency, description, redirect_url, status, refunded_cents, metadata,
                     created_at, expires_at)
                VALUES (?, 9500, 'CHF', 'Concierge ride', 'http://x/return', 'paid', ?, '{}', ?, ?)
                """, [.text("sbx_\(id)"), SQLValue(refunded), at, at])
        }

        _ = try await Migrator(database: database).migrate()

        let store = SQLOrderLifecycleStore(database: database, rows: [SQLRidesOrderRows()])
        let owed = try await store.owedRefunds(orderID: "bkg_owed")
        #expect(owed.map(\.refund.key) == ["cancel-bkg_owed"])
        #expect(owed.first?.refund.amountCents == 9500)
        #expect(try await store.owedRefunds(orderID: "bkg_done").isEmpty)
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_790_000_600))
        let random = SeededRandomSource(seed: 3)
        let lifecycle = OrderLifecycle(
            store: store, holds: SQLHoldStore(database: database),
            payments: SandboxPaymentProvider(
                ledger: SQLSandboxLedger(database: database), publicURL: "http://x", random: random, clock: clock),
            clock: clock, random: random)
        #expect(try await lifecycle.settleOwedRefunds() == 1)
        #expect(try await lifecycle.settleOwedRefunds() == 0)
        #expect(try await store.order(id: "bkg_owed")?.payment?.refundedCents == 9500)
        #expect(try await store.order(id: "bkg_owed")?.status == .cancelled)
        try await database.close()
    }
}
