import ConciergeCore
import ConciergeModels
import ConciergeStore
import ConciergeTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import ConciergeServer

/// The platform's money rules, run against every vertical that sells (`SellingVertical`) on both
/// engines, through each vertical's own routes and the provider's webhook: whatever the
/// vertical, a paid order ends confirmed or refunded in full, once.
@Suite struct OrderLifecycleConformanceTests {
    typealias Provider = PaymentWebhookTests.FakeProvider

    static func paid(_ id: String, _ provider: Provider, _ client: any TestClientProtocol) async throws {
        provider.set(id, .paid)
        let delivered = try await client.execute(
            uri: "/payments/mollie/webhook", method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "id=\(id)"))
        guard delivered.status == .ok else { throw TestFailure("webhook: \(delivered.status)") }
    }

    /// One server of `vertical` on `engine` with the provider double, the worker, and the
    /// database to read the platform's tables from; closed afterwards.
    static func run<Value: Sendable>(
        _ vertical: SellingVertical, _ engine: TestEngine, limits: [String: String] = [:],
        _ body: @Sendable (Scene) async throws -> Value
    ) async throws -> Value {
        let app = try await vertical.app(engine, limits: limits)
        let provider = Provider(name: "mollie")
        let database = try await app.configuration.storage.open(logger: TestApp.quiet)
        do {
            let value = try await app.runWithWorker(payments: provider) { client, worker in
                try await body(
                    Scene(app: app, client: client, worker: worker, provider: provider, database: database))
            }
            try await database.close()
            return value
        } catch {
            try? await database.close()
            throw error
        }
    }

    struct Scene: Sendable {
        let app: TestApp
        let client: any TestClientProtocol
        let worker: MaintenanceService
        let provider: Provider
        let database: any SQLDatabase
    }

    /// Security review finding 4: 40 customers' cancel and payment arrive together. On PostgreSQL
    /// the payments reach a second instance on the same database.
    @Test(arguments: SellingVertical.allCases, TestEngine.all)
    func cancelRacingPaymentLeavesEveryPaidOrderConfirmedOrRefundedInFull(
        vertical: SellingVertical, engine: TestEngine
    ) async throws {
        try await Self.run(vertical, engine) { scene in
            try await (engine == .postgres ? try scene.app.sibling() : scene.app).runWithWorker(
                payments: scene.provider
            ) {
                other, _ in
                let token = try await vertical.customer("racer", client: scene.client, worker: scene.worker)
                var placed: [SellingVertical.Placed] = []
                for unit in 0..<40 {
                    placed.append(try await vertical.order(unit: unit, token: token, client: scene.client))
                }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for order in placed {
                        group.addTask { _ = try await vertical.cancel(order, token: token, client: scene.client) }
                        group.addTask { try await Self.paid(order.paymentID, scene.provider, other) }
                    }
                    try await group.waitForAll()
                }
                // Deliveries repeat; the worker pays what is owed. Nothing more may move.
                for order in placed { try await Self.paid(order.paymentID, scene.provider, scene.client) }
                for _ in 0..<3 { await scene.worker.tick() }
                var kept = 0
                for order in placed {
                    let money = try await OrderMoney.of(paymentID: order.paymentID, in: scene.database)
                    #expect(money.isSettled, "\(money)")
                    if money.status == "confirmed" { kept += 1 }
                }
                #expect(kept < placed.count, "every cancel lost the race: the race was not run")
            }
        }
    }

    @Test(arguments: SellingVertical.allCases, TestEngine.all)
    func aLatePaymentIsHonouredWhileItsUnitIsStillFree(vertical: SellingVertical, engine: TestEngine) async throws {
        try await Self.run(vertical, engine) { scene in
            let token = try await vertical.customer("late", client: scene.client, worker: scene.worker)
            let order = try await vertical.order(unit: 0, token: token, client: scene.client)
            scene.app.clock.advance(by: vertical.pastTheHold)
            await scene.worker.tick()
            #expect(try await OrderMoney.of(paymentID: order.paymentID, in: scene.database).status == "expired")
            try await Self.paid(order.paymentID, scene.provider, scene.client)
            let money = try await OrderMoney.of(paymentID: order.paymentID, in: scene.database)
            #expect(money.status == "confirmed" && money.refundedCents == 0)
        }
    }

    @Test(arguments: SellingVertical.withInventory, TestEngine.all)
    func aLatePaymentForAUnitSoldToSomeoneElseIsRefundedInFull(
        vertical: SellingVertical, engine: TestEngine
    ) async throws {
        try await Self.run(vertical, engine) { scene in
            let late = try await vertical.customer("late", client: scene.client, worker: scene.worker)
            let lapsed = try await vertical.order(unit: 0, token: late, client: scene.client)
            scene.app.clock.advance(by: vertical.pastTheHold)
            await scene.worker.tick()
            // Signed in after the wait: some verticals' sessions are shorter than a hold.
            let quick = try await vertical.customer("quick", client: scene.client, worker: scene.worker)
            let sold = try await vertical.order(unit: 0, token: quick, client: scene.client)
            try await Self.paid(sold.paymentID, scene.provider, scene.client)
            try await Self.paid(lapsed.paymentID, scene.provider, scene.client)
            await scene.worker.tick()
            let money = try await OrderMoney.of(paymentID: lapsed.paymentID, in: scene.database)
            #expect(money.status == "refunded" && money.isSettled, "\(money)")
            #expect(try await OrderMoney.of(paymentID: sold.paymentID, in: scene.database).status == "confirmed")
        }
    }

    /// Security review finding 30, now every vertical's: another amount never confirms.
    @Test(arguments: SellingVertical.allCases, TestEngine.all)
    func aPaymentOfAnotherAmountNeverConfirmsAndGoesBack(vertical: SellingVertical, engine: TestEngine) async throws {
        try await Self.run(vertical, engine) { scene in
            let token = try await vertical.customer("short", client: scene.client, worker: scene.worker)
            let order = try await vertical.order(unit: 0, token: token, client: scene.client)
            let price = try await OrderMoney.of(paymentID: order.paymentID, in: scene.database).amountCents
            scene.provider.setAmount(order.paymentID, price - 100)
            try await Self.paid(order.paymentID, scene.provider, scene.client)
            try await Self.paid(order.paymentID, scene.provider, scene.client)
            let money = try await OrderMoney.of(paymentID: order.paymentID, in: scene.database)
            #expect(money.status == "cancelled" && money.refundRows == 1, "\(money)")
            #expect(scene.provider.refundKeys == ["mismatch-\(money.orderID)"])
        }
    }

    /// Security review findings 5 and 12: the order moves first and the refund is owed; a
    /// provider that refuses does not stop the worker, which pays later, once, after its pause.
    @Test(arguments: SellingVertical.allCases, TestEngine.all)
    func aRefundTheProviderRefusesIsPaidLaterOnce(vertical: SellingVertical, engine: TestEngine) async throws {
        try await Self.run(vertical, engine) { scene in
            let token = try await vertical.customer("refusal", client: scene.client, worker: scene.worker)
            var placed: [SellingVertical.Placed] = []
            for unit in 0..<2 {
                let order = try await vertical.order(unit: unit, token: token, client: scene.client)
                try await Self.paid(order.paymentID, scene.provider, scene.client)
                placed.append(order)
            }
            scene.provider.setRefuseRefunds(true)
            for order in placed { #expect(try await vertical.cancel(order, token: token, client: scene.client) == .ok) }
            await scene.worker.tick()
            for order in placed {
                let money = try await OrderMoney.of(paymentID: order.paymentID, in: scene.database)
                #expect(money.status == "cancelled" && money.refundedCents == 0, "\(money)")
            }
            scene.provider.setRefuseRefunds(false)
            await scene.worker.tick()  // each refund waits out its pause
            #expect(try await OrderMoney.of(paymentID: placed[0].paymentID, in: scene.database).refundedCents == 0)
            scene.app.clock.advance(by: 61)
            await scene.worker.tick()
            await scene.worker.tick()
            for order in placed {
                let money = try await OrderMoney.of(paymentID: order.paymentID, in: scene.database)
                #expect(money.isSettled && money.status == "cancelled", "\(money)")
            }
            #expect(scene.provider.refundKeys.count == placed.count)
        }
    }

    /// A crash between the transition and the refund: the refund is owed in the database, and a
    /// restarted server pays it once.
    @Test(arguments: SellingVertical.allCases, TestEngine.all)
    func anOwedRefundIsPaidOnceAfterARestart(vertical: SellingVertical, engine: TestEngine) async throws {
        let app = try await vertical.app(engine)
        let provider = Provider(name: "mollie")
        let database = try await app.configuration.storage.open(logger: TestApp.quiet)
        let order = try await app.runWithWorker(payments: provider) { client, worker in
            let token = try await vertical.customer("restart", client: client, worker: worker)
            let order = try await vertical.order(unit: 0, token: token, client: client)
            try await Self.paid(order.paymentID, provider, client)
            provider.setRefuseRefunds(true)
            #expect(try await vertical.cancel(order, token: token, client: client) == .ok)
            return order
        }
        provider.setRefuseRefunds(false)
        app.clock.advance(by: 61)
        try await app.sibling().runWithWorker(payments: provider) { _, worker in
            await worker.tick()
            await worker.tick()
        }
        let money = try await OrderMoney.of(paymentID: order.paymentID, in: database)
        #expect(money.status == "cancelled" && money.isSettled, "\(money)")
        #expect(provider.refundKeys == ["cancel-\(money.orderID)"])
        try await database.close()
    }

    /// An operator gives part of a paid order back: the order stands, each part is refunded once,
    /// and never more than was paid is owed back.
    @Test(arguments: SellingVertical.allCases, TestEngine.all)
    func partialRefundsArePaidOnceAndNeverExceedThePayment(vertical: SellingVertical, engine: TestEngine) async throws {
        try await Self.run(vertical, engine) { scene in
            let token = try await vertical.customer("goodwill", client: scene.client, worker: scene.worker)
            let order = try await vertical.order(unit: 0, token: token, client: scene.client)
            try await Self.paid(order.paymentID, scene.provider, scene.client)
            let paid = try await OrderMoney.of(paymentID: order.paymentID, in: scene.database)
            func refund(_ cents: Int) async throws -> TestResponse {
                try await scene.client.send(
                    .post, "/admin/orders/\(paid.orderID)/refunds",
                    json: #"{"amountCents": \#(cents), "reason": "the heating was broken"}"#,
                    headers: [.authorization: "Bearer \(SellingVertical.adminToken)"])
            }
            #expect(try await refund(1_000).status == .created)
            let tooMuch = try await refund(paid.amountCents - 1_000 + 1)
            #expect(tooMuch.status == .conflict && tooMuch.errorBody?.code == "refund_exceeds_payment")
            #expect(try await refund(paid.amountCents - 1_000).status == .created)
            #expect(try await refund(1).status == .conflict)
            for _ in 0..<2 { await scene.worker.tick() }
            let money = try await OrderMoney.of(paymentID: order.paymentID, in: scene.database)
            #expect(money.status == "confirmed" && money.refundedCents == money.amountCents && money.refundRows == 2)
            #expect(Set(scene.provider.refundKeys) == ["partial-\(paid.orderID)-1", "partial-\(paid.orderID)-2"])
        }
    }

    /// The platform's unpaid-order cap, with each vertical's number: the next order is 429 with
    /// `Retry-After` and a sentence saying what to do, in the vertical's envelope.
    @Test(arguments: SellingVertical.allCases, TestEngine.all)
    func theUnpaidOrderCapAnswers429WithRetryAfter(vertical: SellingVertical, engine: TestEngine) async throws {
        try await Self.run(vertical, engine, limits: [vertical.unpaidCapVariable: "3"]) { scene in
            let token = try await vertical.customer("capped", client: scene.client, worker: scene.worker)
            for unit in 0..<3 { _ = try await vertical.order(unit: unit, token: token, client: scene.client) }
            let fourth = try await vertical.orderRequest(unit: 3, token: token, client: scene.client)
            #expect(fourth.status == .tooManyRequests)
            #expect(Int(fourth.headers[.retryAfter] ?? "") ?? 0 > 0)
            let body = String(buffer: fourth.body)
            #expect(body.contains("unpaid") && body.contains("Pay or cancel"), "\(body)")
        }
    }

    /// The IETF Idempotency-Key rule on every order-creating route: the same key with the same
    /// body answers the first order again, with another body 422 `idempotency_key_reused`.
    @Test(arguments: SellingVertical.allCases, TestEngine.all)
    func anIdempotencyKeyReusedWithAnotherBodyIs422(vertical: SellingVertical, engine: TestEngine) async throws {
        try await Self.run(vertical, engine) { scene in
            let token = try await vertical.customer("keyed", client: scene.client, worker: scene.worker)
            let first = try await vertical.orderRequest(unit: 0, token: token, client: scene.client, key: "key-1")
            #expect(first.status == .ok || first.status == .created)
            let again = try await vertical.orderRequest(unit: 0, token: token, client: scene.client, key: "key-1")
            #expect(try vertical.placed(from: again).handle == vertical.placed(from: first).handle)
            let other = try await vertical.orderRequest(unit: 1, token: token, client: scene.client, key: "key-1")
            #expect(other.status == .unprocessableContent)
            #expect(String(buffer: other.body).contains("idempotency_key_reused"))
            let orders = try await scene.database.query(
                "SELECT COUNT(*) AS n FROM orders WHERE vertical = ?", [.text(vertical.rawValue)])
            #expect(try orders.first?.int("n") == 1)
        }
    }
}
