import ConciergeCore
import ConciergeModels
import ConciergeStore
import ConciergeTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ConciergeServer

/// Prepaid rooms through the platform's holds, orders and payments, over HTTP on both engines:
/// paid in the sandbox → confirmed; lapsed unpaid → the nights are free again; a late payment is
/// honoured while the nights are free and refunded (with an email) when they are not; a
/// cancellation refunds under the policy and the refund is in the payments ledger.
@Suite struct StaysPrepayHTTPTests {
    /// Two nights of a Double for two: 2 × CHF 180 + city tax 2 × 2 × CHF 2.50.
    static let total = 37_000

    @Test(arguments: TestEngine.all)
    func aPrepaidReservationIsHeldThenConfirmedWhenPaidInTheSandbox(engine: TestEngine) async throws {
        let app = try await StaysPrepay.app(engine, rooms: 2)
        let database = try await app.configuration.storage.open(logger: TestApp.quiet)
        try await app.runWithWorker { client, worker in
            let anna = try await client.staysSignUp("anna")
            let made = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: anna.token, as: Stays.Reservation.self)
            #expect(made.status == .created && made.envelope.message.contains("Held until"))
            let held = try made.require()
            #expect(held.status == "pending_payment" && held.paymentPolicy == "prepay")
            let payment = try #require(held.payment)
            #expect(payment.amountCents == Self.total && payment.provider == "sandbox")
            #expect(payment.reference.hasPrefix("STY-") && payment.paidAt == nil)
            #expect(payment.payBy == StaysWire.millis(app.clock.now.addingTimeInterval(30 * 60)))
            let checkoutURL = try #require(payment.checkoutUrl)
            #expect(try await client.staysFree("Double", token: anna.token) == 1)

            let paid = try await client.checkout(checkoutURL, outcome: "paid")
            #expect(paid.status == .seeOther)
            let back = try await client.stays(
                .get, try StaysPrepay.path(of: try #require(paid.headers[.location])), as: Stays.Reservation.self)
            #expect(back.status == .ok && back.data?.status == "confirmed" && back.envelope.message.hasPrefix("Paid."))

            let mine = try await client.stays(
                .get, "/appointment/\(anna.guestId)?when=upcoming", token: anna.token, as: [Stays.Reservation].self
            ).require()
            #expect(mine.map(\.status) == ["confirmed"] && mine.first?.payment?.paidAt != nil)
            #expect(mine.first?.payment?.checkoutUrl == nil)
            #expect(try await client.staysFree("Double", token: anna.token) == 1)

            let order = try await StaysPrepay.order(of: held, in: database)
            #expect(order.vertical == "stays" && order.state == "confirmed" && order.amountCents == Self.total)
            #expect(order.lines.map(\.kind) == ["room-night", "room-night", "city-tax"])
            let ledger = try await SQLPaymentLedger(database: database).payments(orderID: order.id)
            #expect(ledger.map(\.status) == [.paid] && ledger.first?.ownerVertical == "stays")
            let outbox = try await client.staysOutbox(containing: "paid in advance", delivering: worker)
            #expect(outbox.contains(held.confirmationCode) && outbox.contains(payment.reference))
        }
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func anUnpaidHoldLapsesAndItsNightsAreFreeAgain(engine: TestEngine) async throws {
        let app = try await StaysPrepay.app(engine, rooms: 1)
        let database = try await app.configuration.storage.open(logger: TestApp.quiet)
        try await app.runWithWorker { client, worker in
            let anna = try await client.staysSignUp("anna")
            let bert = try await client.staysSignUp("bert")
            let held = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: anna.token, as: Stays.Reservation.self
            ).require()
            let full = try await client.stays(.post, "/appointment", json: StaysFixtures.reserve(), token: bert.token)
            #expect(full.status == .conflict && full.envelope.errorType == "sold_out")

            app.clock.advance(by: 31 * 60)
            await worker.tick()
            let anna2 = try await client.staysLogin("anna")
            let bert2 = try await client.staysLogin("bert")
            let lapsed = try await client.stays(
                .get, "/appointment/\(anna.guestId)?when=past", token: anna2.token, as: [Stays.Reservation].self
            ).require()
            #expect(lapsed.map(\.id) == [held.id] && lapsed.first?.status == "expired")
            #expect(try await client.staysFree("Double", token: bert2.token) == 1)
            let order = try await StaysPrepay.order(of: held, in: database)
            #expect(order.state == "expired")
            // The lapsed checkout can no longer be paid: the payment was cancelled with the hold.
            _ = try await client.checkout(try #require(held.payment?.checkoutUrl), outcome: "paid")
            let still = try await client.stays(
                .get, "/appointment/\(anna.guestId)", token: anna2.token, as: [Stays.Reservation].self)
            #expect(still.data?.first?.status == "expired")

            let berts = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: bert2.token, as: Stays.Reservation.self)
            #expect(berts.status == .created && berts.data?.status == "pending_payment")
            // Cancelled before paying: free, the nights back at once, the payment cancelled.
            let cancelled = try await client.stays(
                .delete, "/appointment/\(try berts.require().id)", token: bert2.token, as: Stays.Cancellation.self)
            #expect(cancelled.status == .ok && cancelled.data?.reservation.status == "cancelled")
            #expect(cancelled.data?.refundedCents == 0 && cancelled.data?.chargedCents == 0)
            #expect(try await client.staysFree("Double", token: bert2.token) == 1)
            let payments = try await SQLPaymentLedger(database: database).payments(
                orderID: try await StaysPrepay.order(of: try berts.require(), in: database).id)
            #expect(payments.map(\.status) == [.canceled])
        }
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func aLatePaymentIsHonouredWhileTheNightsAreStillFree(engine: TestEngine) async throws {
        let app = try await StaysPrepay.app(engine, rooms: 1)
        let database = try await app.configuration.storage.open(logger: TestApp.quiet)
        try await app.runWithWorker { client, _ in
            let anna = try await client.staysSignUp("anna")
            let held = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: anna.token, as: Stays.Reservation.self
            ).require()
            app.clock.advance(by: 31 * 60)
            // Only the platform's hold expiry has run: the nights are back on sale, the page open.
            // The app's own start-up tick may run late, after the clock moved, and expire the
            // hold first: either way exactly one hold has lapsed.
            _ = try await SQLHoldStore(database: database).expireLapsedHolds(now: app.clock.now, limit: 10)
            let lapsed = try await database.query("SELECT COUNT(*) AS n FROM holds WHERE state = 'expired'")
            #expect(try lapsed.first?.int("n") == 1)
            let again = try await client.staysLogin("anna")
            #expect(try await client.staysFree("Double", token: again.token) == 1)

            _ = try await client.checkout(try #require(held.payment?.checkoutUrl), outcome: "paid")
            let mine = try await client.stays(
                .get, "/appointment/\(anna.guestId)", token: again.token, as: [Stays.Reservation].self
            ).require()
            #expect(mine.first?.status == "confirmed" && mine.first?.refundedCents == 0)
            #expect(try await client.staysFree("Double", token: again.token) == 0)
            let order = try await StaysPrepay.order(of: held, in: database)
            let log = try await SQLOrderStore(database: database).events(orderID: order.id)
            #expect(log.last?.detail.contains("paid after the hold lapsed") == true)
        }
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func aLatePaymentForNightsSoldToSomeoneElseIsRefundedInFullWithAnEmail(engine: TestEngine) async throws {
        let app = try await StaysPrepay.app(engine, rooms: 1)
        let database = try await app.configuration.storage.open(logger: TestApp.quiet)
        try await app.runWithWorker { client, worker in
            let anna = try await client.staysSignUp("anna")
            let late = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: anna.token, as: Stays.Reservation.self
            ).require()
            app.clock.advance(by: 31 * 60)
            _ = try await SQLHoldStore(database: database).expireLapsedHolds(now: app.clock.now, limit: 10)
            let bert = try await client.staysSignUp("bert")
            let berts = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: bert.token, as: Stays.Reservation.self
            ).require()
            _ = try await client.checkout(try #require(berts.payment?.checkoutUrl), outcome: "paid")
            _ = try await client.checkout(try #require(late.payment?.checkoutUrl), outcome: "paid")

            let again = try await client.staysLogin("anna")
            let annas = try await client.stays(
                .get, "/appointment/\(anna.guestId)?when=past", token: again.token, as: [Stays.Reservation].self
            ).require()
            #expect(annas.first?.status == "refunded" && annas.first?.refundedCents == Self.total)
            let bertsNow = try await client.stays(
                .get, "/appointment/\(bert.guestId)", token: bert.token, as: [Stays.Reservation].self
            ).require()
            #expect(bertsNow.first?.status == "confirmed")
            #expect(try await client.staysFree("Double", token: bert.token) == 0)

            let order = try await StaysPrepay.order(of: late, in: database)
            #expect(order.state == "refunded")
            let ledger = SQLPaymentLedger(database: database)
            let payment = try #require(try await ledger.payments(orderID: order.id).first)
            #expect(payment.status == .paid && payment.refundedCents == Self.total)
            #expect(try await ledger.refunds(paymentID: payment.id).map(\.amountCents) == [Self.total])
            let outbox = try await client.staysOutbox(containing: "is refunded", delivering: worker)
            #expect(outbox.contains(late.confirmationCode) && outbox.contains("CHF 370.00"))
        }
        try await database.close()
    }

    @Test(arguments: TestEngine.all)
    func cancellingAPaidStayRefundsUnderThePolicyIntoThePaymentsLedger(engine: TestEngine) async throws {
        let app = try await StaysPrepay.app(engine, rooms: 2)
        let database = try await app.configuration.storage.open(logger: TestApp.quiet)
        try await app.runWithWorker { client, _ in
            let anna = try await client.staysSignUp("anna")
            let ledger = SQLPaymentLedger(database: database)
            let orders = SQLOrderStore(database: database)

            // Early: free, everything back.
            let early = try await StaysPrepay.reserveAndPay(client, token: anna.token)
            let free = try await client.stays(
                .delete, "/appointment/\(early.id)", token: anna.token, as: Stays.Cancellation.self)
            #expect(free.status == .ok && free.data?.refundedCents == Self.total && free.data?.chargedCents == 0)
            #expect(free.envelope.message.contains("CHF 370.00 is refunded"))
            let earlyOrder = try await StaysPrepay.order(of: early, in: database)
            #expect(earlyOrder.state == "cancelled")
            let earlyPayment = try #require(try await ledger.payments(orderID: earlyOrder.id).first)
            #expect(try await ledger.refunds(paymentID: earlyPayment.id).map(\.amountCents) == [Self.total])
            #expect(try await client.staysFree("Double", token: anna.token) == 2)

            // Late: the first night is kept from the prepayment, the rest comes back.
            let lateStay = try await StaysPrepay.reserveAndPay(client, token: anna.token)
            app.clock.set(
                Date(timeIntervalSince1970: Double(StaysFixtures.millis(StaysFixtures.monday)) / 1000 - 8 * 3600))
            let again = try await client.staysLogin("anna")
            let late = try await client.stays(
                .delete, "/appointment/\(lateStay.id)", token: again.token, as: Stays.Cancellation.self)
            #expect(late.status == .ok && late.data?.chargedCents == 18_000 && late.data?.refundedCents == 19_000)
            let lateOrder = try await StaysPrepay.order(of: lateStay, in: database)
            let latePayment = try #require(try await ledger.payments(orderID: lateOrder.id).first)
            let refunds = try await ledger.refunds(paymentID: latePayment.id)
            #expect(refunds.map(\.amountCents) == [19_000] && refunds.first?.reason.contains("cancelled") == true)
            // The ledger and the sandbox both say what came back: the first night stays paid.
            #expect(latePayment.refundedCents == 19_000)
            let sandbox = SQLSandboxLedger(database: database)
            #expect(try await sandbox.payment(id: latePayment.providerPaymentID)?.refundedCents == 19_000)
            #expect(try await orders.events(orderID: lateOrder.id).last?.detail.contains("kept CHF 180.00") == true)
            #expect(try await client.staysFree("Double", token: again.token) == 2)
        }
        try await database.close()
    }

    /// Mollie (its adapter's double): the webhook goes through the platform's dispatcher to
    /// stays; a partial refund is recorded at its amount.
    @Test func aMollieWebhookConfirmsAndALateCancellationRefundsPartOfIt() async throws {
        let app = try await StaysPrepay.app(.sqlite, rooms: 2)
        let mollie = PaymentWebhookTests.FakeProvider(name: "mollie")
        let database = try await app.configuration.storage.open(logger: TestApp.quiet)
        try await app.runWithWorker(payments: mollie) { client, _ in
            let anna = try await client.staysSignUp("anna")
            let held = try await client.stays(
                .post, "/appointment", json: StaysFixtures.reserve(), token: anna.token, as: Stays.Reservation.self
            ).require()
            let paymentID = String(try #require(held.payment?.checkoutUrl).split(separator: "/").last ?? "")
            #expect(held.payment?.provider == "mollie" && paymentID.hasPrefix("tr_"))
            #expect(try await client.mollieWebhook(id: paymentID).status == .ok)
            #expect(
                try await client.stays(
                    .get, "/appointment/\(anna.guestId)", token: anna.token, as: [Stays.Reservation].self
                )
                .data?.first?.status == "pending_payment")
            mollie.set(paymentID, .paid)
            #expect(try await client.mollieWebhook(id: paymentID).status == .ok)
            #expect(try await client.mollieWebhook(id: paymentID).status == .ok)
            #expect(
                try await client.stays(
                    .get, "/appointment/\(anna.guestId)", token: anna.token, as: [Stays.Reservation].self
                )
                .data?.first?.status == "confirmed")

            app.clock.set(
                Date(timeIntervalSince1970: Double(StaysFixtures.millis(StaysFixtures.monday)) / 1000 - 8 * 3600))
            let again = try await client.staysLogin("anna")
            let late = try await client.stays(
                .delete, "/appointment/\(held.id)", token: again.token, as: Stays.Cancellation.self)
            #expect(late.data?.refundedCents == 19_000 && late.data?.chargedCents == 18_000)
            let order = try await StaysPrepay.order(of: held, in: database)
            let payment = try #require(try await SQLPaymentLedger(database: database).payments(orderID: order.id).first)
            #expect(payment.provider == "mollie" && payment.refundedCents == 19_000)
        }
        try await database.close()
    }
}

enum StaysPrepay {
    /// A server whose Double (id 2) is prepaid and whose Individual (id 1) is paid at the hotel,
    /// `rooms` of each.
    static func app(_ engine: TestEngine, rooms: Int) async throws -> TestApp {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stays-prepay-\(UUID().uuidString).json")
        let json = """
            {"name": "Prepaid Inn", "roomTypes": [
              {"id": 1, "type": "Individual", "capacity": 1, "rooms": \(rooms), "baseRateCents": 12000},
              {"id": 2, "type": "Double", "capacity": 2, "rooms": \(rooms), "baseRateCents": 18000,
               "paymentPolicy": "prepay"}]}
            """
        try json.write(to: url, atomically: true, encoding: .utf8)
        return try await TestApp.make(
            engine: engine,
            environment: StaysFixtures.environment.merging(["CONCIERGE_STAYS_HOTEL_PATH": url.path]) { $1 })
    }

    /// The path and query of a URL the server made (a return page).
    static func path(of url: String) throws -> String {
        let parsed = try #require(URLComponents(string: url))
        return parsed.path.replacingOccurrences(of: "/stays", with: "", options: .anchored)
            + (parsed.query.map { "?\($0)" } ?? "")
    }

    /// The platform order of a prepaid reservation.
    static func order(of reservation: Stays.Reservation, in database: any SQLDatabase) async throws -> Order {
        guard let reference = reservation.payment?.reference,
            let order = try await SQLOrderStore(database: database).order(reference: reference)
        else { throw TestFailure("reservation \(reservation.id) has no order") }
        return order
    }

    static func reserveAndPay(_ client: any TestClientProtocol, token: String) async throws -> Stays.Reservation {
        let held = try await client.stays(
            .post, "/appointment", json: StaysFixtures.reserve(), token: token, as: Stays.Reservation.self
        ).require()
        let paid = try await client.checkout(try #require(held.payment?.checkoutUrl), outcome: "paid")
        guard paid.status == .seeOther else { throw TestFailure("sandbox checkout: \(paid.status)") }
        return held
    }
}

extension TestClientProtocol {
    func staysLogin(_ username: String) async throws -> Stays.User {
        try await stays(
            .post, "/login", json: #"{"username": "\#(username)", "password": "correct horse battery"}"#,
            as: Stays.User.self
        ).require()
    }

    /// Rooms of `type` free for the fixture's two nights (0 when it is not offered).
    func staysFree(_ type: String, token: String) async throws -> Int {
        let rooms = try await stays(
            .get, "/rooms?dStartTime=\(StaysFixtures.monday)&dEndTime=\(StaysFixtures.wednesday)&guests=1",
            token: token, as: [Stays.RoomHotel].self
        ).require()
        return rooms.first { $0.roomType == type }?.available ?? 0
    }
}
